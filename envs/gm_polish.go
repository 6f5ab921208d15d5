package envs

import (
	"fmt"
	"strings"
)

// GMPolishes lists the local searches that GMPolish can start from a given correspondence.
var GMPolishes = []string{"2swap"}

// GMPolish improves the correspondence perm of the gm instance inst by the local search named
// polish (2swap: GMLocalSearch from perm) and returns the result, which keeps at least as many
// of G1's edges as perm. It is the "policy + polish" of eval --polish: a classical search
// started where the policy ended, scored apart from the policy's own matching.
func GMPolish(polish string, inst Instance, perm []int) ([]int, error) {
	if polish != "2swap" {
		return nil, fmt.Errorf("polish %q: must be one of %s", polish, strings.Join(GMPolishes, ", "))
	}
	n := len(inst.G1)
	if len(inst.G2) != n {
		return nil, fmt.Errorf("polish %s: graphs of %d and %d nodes", polish, n, len(inst.G2))
	}
	if err := checkPermutation("perm", perm, n); err != nil {
		return nil, err
	}
	return GMLocalSearch(inst.G1, inst.G2, perm), nil
}

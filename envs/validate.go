package envs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// checkPoints reports whether field holds exactly n points with finite coordinates, naming
// the field and position of the first problem, e.g. "b[3][1] is NaN".
func checkPoints(field string, pts []Point, n int) error {
	if len(pts) != n {
		return fmt.Errorf("%s has %d points, want %d", field, len(pts), n)
	}
	for i, p := range pts {
		for k, x := range p {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%s[%d][%d] is %v", field, i, k, x)
			}
		}
	}
	return nil
}

// checkValues reports whether field holds exactly n finite numbers.
func checkValues(field string, xs []float64, n int) error {
	if len(xs) != n {
		return fmt.Errorf("%s has %d values, want %d", field, len(xs), n)
	}
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s[%d] is %v", field, i, x)
		}
	}
	return nil
}

// unknownSolver is the error for a solver name that task does not offer.
func unknownSolver(name string, task Task, solvers []string) error {
	return fmt.Errorf("unknown solver %q for %s (want %s)", name, task, strings.Join(solvers, ", "))
}

// randomPerm returns a uniformly random permutation of 0..n-1 drawn from rng.
func randomPerm(n int, rng *rand.Rand) ([]int, error) {
	if rng == nil {
		return nil, fmt.Errorf("solver \"random\" needs a random source, got nil")
	}
	return rng.Perm(n), nil
}

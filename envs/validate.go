package envs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// MaxCoordinate bounds the magnitude of every coordinate and sort value an instance may hold.
// Within it a difference of coordinates squared, a distance (at most 2*sqrt(2)*1e30) and a sum
// of up to 1e270 distances (a tour, a matching, Held-Karp's and the assignment's partial sums)
// stay finite float64 numbers, so every solver compares real numbers; beyond it squared
// distances overflow to +Inf and solvers that look for the cheapest edge find none. It also
// keeps every number finite as the float32 a policy reads.
const MaxCoordinate = 1e30

// numberError words why x, at where, is refused, or is nil when x is a finite number within
// [-MaxCoordinate, MaxCoordinate] (a NaN fails the first comparison too).
func numberError(x float64, where func() string) error {
	if math.Abs(x) <= MaxCoordinate {
		return nil
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%s is %v", where(), x)
	}
	return fmt.Errorf("%s = %g is outside [-%g, %g] (larger numbers overflow float64 distances)", where(), x, MaxCoordinate, MaxCoordinate)
}

// CheckPoints reports whether field holds exactly n points with finite coordinates within
// MaxCoordinate, naming the field and position of the first problem, e.g. "b[3][1] is NaN".
func CheckPoints(field string, pts []Point, n int) error {
	if len(pts) != n {
		return fmt.Errorf("%s has %d points, want %d", field, len(pts), n)
	}
	for i, p := range pts {
		for k, x := range p {
			if err := numberError(x, func() string { return fmt.Sprintf("%s[%d][%d]", field, i, k) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckValues reports whether field holds exactly n finite numbers within MaxCoordinate.
func CheckValues(field string, xs []float64, n int) error {
	if len(xs) != n {
		return fmt.Errorf("%s has %d values, want %d", field, len(xs), n)
	}
	for i, x := range xs {
		if err := numberError(x, func() string { return fmt.Sprintf("%s[%d]", field, i) }); err != nil {
			return err
		}
	}
	return nil
}

// UnknownSolver is the error for a solver name that task does not offer.
func UnknownSolver(name string, task Task, solvers []string) error {
	return fmt.Errorf("unknown solver %q for %s (want %s)", name, task, strings.Join(solvers, ", "))
}

// RandomPerm returns a uniformly random permutation of 0..n-1 drawn from rng.
func RandomPerm(n int, rng *rand.Rand) ([]int, error) {
	if rng == nil {
		return nil, fmt.Errorf("solver \"random\" needs a random source, got nil")
	}
	return rng.Perm(n), nil
}

// CheckPermutation reports whether p, the field called name, is a permutation of 0..n-1.
func CheckPermutation(name string, p []int, n int) error {
	if len(p) != n {
		return fmt.Errorf("%s has %d entries, want %d", name, len(p), n)
	}
	seen := make([]bool, n)
	for i, j := range p {
		if j < 0 || j >= n || seen[j] {
			return fmt.Errorf("%s is not a permutation: %s[%d] = %d", name, name, i, j)
		}
		seen[j] = true
	}
	return nil
}

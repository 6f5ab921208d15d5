package envs

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/perm"
)

// testRNG is a fixed-seed generator for tests.
func testRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// gridPoints draws n points from the 3 x 3 grid {0, 0.5, 1}^2, so duplicates and exact ties
// in distance are common.
func gridPoints(rng *rand.Rand, n int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{float64(rng.IntN(3)) / 2, float64(rng.IntN(3)) / 2}
	}
	return pts
}

// collinearPoints draws n points on the line y = 0.25 + x/2 at grid positions, so many
// tours tie and repeats occur.
func collinearPoints(rng *rand.Rand, n int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		x := float64(rng.IntN(5)) / 4
		pts[i] = Point{x, 0.25 + x/2}
	}
	return pts
}

// pointSets are the instance families the solvers are checked on.
var pointSets = []struct {
	name string
	gen  func(rng *rand.Rand, n int) []Point
}{
	{"uniform", uniformPoints},
	{"grid-duplicates", gridPoints},
	{"collinear", collinearPoints},
}

// distances returns the symmetric distance matrix of pts.
func distances(pts []Point) []float64 {
	d := make([]float64, len(pts)*len(pts))
	DistanceMatrix(d, pts, pts)
	return d
}

// mustPerm fails t unless p is a permutation of 0..n-1.
func mustPerm(t *testing.T, p []int, n int, what string) {
	t.Helper()
	if len(p) != n {
		t.Fatalf("%s: length %d, want %d", what, len(p), n)
	}
	if err := perm.Validate(p); err != nil {
		t.Fatalf("%s: %v (%v)", what, err, p)
	}
}

// near reports whether a and b agree to 1e-9, relative to their size.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// meanSE returns the sample mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// referenceTolerance is how far a mean of xs may fall from a reference number: 3 standard
// errors of the difference, taking the reference's own error as that of a 1,000-instance mean
// of the same spread, plus half of the reference's last printed digit (unit).
func referenceTolerance(xs []float64, unit float64) (mean, tol float64) {
	mean, se := meanSE(xs)
	return mean, 3*se*math.Sqrt(1+float64(len(xs))/1000) + unit/2
}

// checkReference fails t unless the mean of xs is within referenceTolerance of ref.
func checkReference(t *testing.T, name string, xs []float64, ref, unit float64) {
	t.Helper()
	mean, tol := referenceTolerance(xs, unit)
	t.Logf("%s: mean %.4f, reference %v, tolerance %.4f", name, mean, ref, tol)
	if math.Abs(mean-ref) > tol {
		t.Errorf("%s: mean %.4f, reference %v (tolerance %.4f)", name, mean, ref, tol)
	}
}

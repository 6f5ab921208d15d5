package tsp

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/perm"
)

// point is a location in the plane; the solvers see only the distances between points.
type point [2]float64

// testRNG is a fixed-seed generator for tests.
func testRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// uniformPoints draws n points uniform in the unit square (as the tsp task does).
func uniformPoints(rng *rand.Rand, n int) []point {
	pts := make([]point, n)
	for i := range pts {
		pts[i] = point{rng.Float64(), rng.Float64()}
	}
	return pts
}

// gridPoints draws n points from the 3 x 3 grid {0, 0.5, 1}^2, so duplicates and exact ties
// in distance are common.
func gridPoints(rng *rand.Rand, n int) []point {
	pts := make([]point, n)
	for i := range pts {
		pts[i] = point{float64(rng.IntN(3)) / 2, float64(rng.IntN(3)) / 2}
	}
	return pts
}

// collinearPoints draws n points on the line y = 0.25 + x/2 at grid positions, so many
// tours tie and repeats occur.
func collinearPoints(rng *rand.Rand, n int) []point {
	pts := make([]point, n)
	for i := range pts {
		x := float64(rng.IntN(5)) / 4
		pts[i] = point{x, 0.25 + x/2}
	}
	return pts
}

// pointSets are the instance families the solvers are checked on.
var pointSets = []struct {
	name string
	gen  func(rng *rand.Rand, n int) []point
}{
	{"uniform", uniformPoints},
	{"grid-duplicates", gridPoints},
	{"collinear", collinearPoints},
}

// distances returns the symmetric Euclidean distance matrix of pts, row-major.
func distances(pts []point) []float64 {
	d := make([]float64, len(pts)*len(pts))
	for i, p := range pts {
		for j, q := range pts {
			dx, dy := p[0]-q[0], p[1]-q[1]
			d[i*len(pts)+j] = math.Sqrt(dx*dx + dy*dy)
		}
	}
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

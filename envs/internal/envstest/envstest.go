// Package envstest holds what the tests of envs and its task folders share: a fixed-seed
// generator, the point families the solvers are checked on, and the checks on their answers.
// The point helpers are generic over the point type because envs.Point and the solvers' tests'
// own points are distinct types of the same shape.
package envstest

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/perm"
)

// RNG is a fixed-seed generator for tests.
func RNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// UniformPoints draws n points uniform in the unit square, x before y (as the tsp task does).
func UniformPoints[P ~[2]float64](rng *rand.Rand, n int) []P {
	pts := make([]P, n)
	for i := range pts {
		pts[i] = P{rng.Float64(), rng.Float64()}
	}
	return pts
}

// GridPoints draws n points from the 3 x 3 grid {0, 0.5, 1}^2, so duplicates and exact ties
// in distance are common.
func GridPoints[P ~[2]float64](rng *rand.Rand, n int) []P {
	pts := make([]P, n)
	for i := range pts {
		pts[i] = P{float64(rng.IntN(3)) / 2, float64(rng.IntN(3)) / 2}
	}
	return pts
}

// CollinearPoints draws n points on the line y = 0.25 + x/2 at grid positions, so many
// tours tie and repeats occur.
func CollinearPoints[P ~[2]float64](rng *rand.Rand, n int) []P {
	pts := make([]P, n)
	for i := range pts {
		x := float64(rng.IntN(5)) / 4
		pts[i] = P{x, 0.25 + x/2}
	}
	return pts
}

// PointSet is a named family of instances.
type PointSet[P ~[2]float64] struct {
	Name string
	Gen  func(rng *rand.Rand, n int) []P
}

// PointSets returns the instance families the solvers are checked on.
func PointSets[P ~[2]float64]() []PointSet[P] {
	return []PointSet[P]{
		{"uniform", UniformPoints[P]},
		{"grid-duplicates", GridPoints[P]},
		{"collinear", CollinearPoints[P]},
	}
}

// Distances returns the symmetric Euclidean distance matrix of pts, row-major.
func Distances[P ~[2]float64](pts []P) []float64 {
	d := make([]float64, len(pts)*len(pts))
	for i, p := range pts {
		for j, q := range pts {
			dx, dy := p[0]-q[0], p[1]-q[1]
			d[i*len(pts)+j] = math.Sqrt(dx*dx + dy*dy)
		}
	}
	return d
}

// MustPerm fails t unless p is a permutation of 0..n-1.
func MustPerm(t testing.TB, p []int, n int, what string) {
	t.Helper()
	if len(p) != n {
		t.Fatalf("%s: length %d, want %d", what, len(p), n)
	}
	if err := perm.Validate(p); err != nil {
		t.Fatalf("%s: %v (%v)", what, err, p)
	}
}

// Near reports whether a and b agree to 1e-9, relative to their size.
func Near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

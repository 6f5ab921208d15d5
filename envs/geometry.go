package envs

import (
	"fmt"
	"math"
)

// Distance is the Euclidean distance between p and q. It is exactly symmetric: negating a
// difference is exact, so Distance(p, q) == Distance(q, p) bit for bit.
func Distance(p, q Point) float64 {
	dx, dy := p[0]-q[0], p[1]-q[1]
	return math.Sqrt(dx*dx + dy*dy)
}

// DistanceMatrix fills dst, row-major len(a) x len(b), with dst[i*len(b)+j] = |a[i] - b[j]|.
// DistanceMatrix(d, pts, pts) gives the symmetric matrix of a TSP instance.
// It panics if len(dst) != len(a)*len(b).
func DistanceMatrix(dst []float64, a, b []Point) {
	if len(dst) != len(a)*len(b) {
		panic(fmt.Sprintf("envs: distance matrix has %d entries, want %d x %d", len(dst), len(a), len(b)))
	}
	for i, p := range a {
		row := dst[i*len(b) : (i+1)*len(b)]
		for j, q := range b {
			row[j] = Distance(p, q)
		}
	}
}

// TourLength is the length of the closed tour visiting pts in the order tour
// (returning from the last to the first). It does not allocate; tour must index pts.
func TourLength(pts []Point, tour []int) float64 {
	if len(tour) < 2 {
		return 0
	}
	prev := pts[tour[len(tour)-1]]
	var sum float64
	for _, v := range tour {
		sum += Distance(prev, pts[v])
		prev = pts[v]
	}
	return sum
}

// SquareSymmetries is the number of symmetries of the unit square (the dihedral group of order
// 8): rotations by multiples of 90 degrees, each with or without a reflection.
const SquareSymmetries = 8

// SquareSymmetry maps p by symmetry k (0 <= k < SquareSymmetries) of the unit square [0,1]^2;
// k = 0 is the identity. Each is an isometry, so distances, tour lengths and matching weights
// are unchanged: POMO's x8 augmentation (Kwon et al. 2020).
func SquareSymmetry(k int, p Point) Point {
	x, y := p[0], p[1]
	if k&4 != 0 {
		x, y = y, x
	}
	if k&1 != 0 {
		x = 1 - x
	}
	if k&2 != 0 {
		y = 1 - y
	}
	return Point{x, y}
}

// MapPoints returns inst with f applied to every point (of A, B and Points) in new slices; its
// other fields are shared with inst.
func (inst Instance) MapPoints(f func(Point) Point) Instance {
	mapped := func(pts []Point) []Point {
		if pts == nil {
			return nil
		}
		out := make([]Point, len(pts))
		for i, p := range pts {
			out[i] = f(p)
		}
		return out
	}
	out := inst
	out.A, out.B, out.Points = mapped(inst.A), mapped(inst.B), mapped(inst.Points)
	return out
}

// Package pairs builds the per-pair input features of the pairwise (permutation-equivariant)
// SPG networks: one feature vector for each (row, column) cell of an action matrix, computed
// from the instance's coordinates or values only. Matching, Tour and Sort are linear maps of them:
// no feature hands the network a quantity the reward is made of (a pair's distance for MWM, an
// item's distance from its sorted place), which it must learn to compute itself. TourLocal is the
// exception, for a network that must score tours of any size: it measures each pair in its
// cities' own neighbourhoods, distances included, never in the reward's units.
//
// The features are inputs to the networks, not parameters, so they have no backward pass.
package pairs

// Float is the element type of the kernels.
type Float interface{ ~float32 | ~float64 }

// MatchingWidth is the number of features of one (i, j) pair of an MWM instance.
const MatchingWidth = 6

// Matching writes, for each of b MWM states x (each 2n x 2: the n points of A, then the n
// points of B) and each pair (i, j), the features of b_i and a_j into dst (b x n x n x
// MatchingWidth, row i for the point b_i of B, column j for the point a_j of A, as the actions'
// rows and columns):
//
//	b_i.x, b_i.y, a_j.x, a_j.y, b_i.x - a_j.x, b_i.y - a_j.y.
func Matching[T Float](dst, x []T, b, n int) {
	const w = MatchingWidth
	for s := range b {
		st := x[s*4*n:][:4*n]
		a, bb := st[:2*n], st[2*n:]
		out := dst[s*n*n*w:][:n*n*w]
		for i := range n {
			bx, by := bb[2*i], bb[2*i+1]
			for j := range n {
				ax, ay := a[2*j], a[2*j+1]
				dx, dy := bx-ax, by-ay
				f := out[(i*n+j)*w:][:w]
				f[0], f[1], f[2], f[3], f[4], f[5] = bx, by, ax, ay, dx, dy
			}
		}
	}
}

// TourWidth is the number of features of one (i, j) pair of a TSP instance.
const TourWidth = 6

// Tour writes, for each of b TSP states x (each n x 2: the cities) and each pair (i, j), the
// features of city i followed by city j into dst (b x n x n x TourWidth, row i for the city left,
// column j for the city entered next, as the successor action's rows and columns):
//
//	c_i.x, c_i.y, c_j.x, c_j.y, c_i.x - c_j.x, c_i.y - c_j.y.
//
// These are Matching's features with both sets the cities: linear in the coordinates, so the
// network must learn the distance the tour's length is made of.
func Tour[T Float](dst, x []T, b, n int) {
	const w = TourWidth
	for s := range b {
		c := x[s*2*n:][:2*n]
		out := dst[s*n*n*w:][:n*n*w]
		for i := range n {
			ix, iy := c[2*i], c[2*i+1]
			for j := range n {
				jx, jy := c[2*j], c[2*j+1]
				f := out[(i*n+j)*w:][:w]
				f[0], f[1], f[2], f[3], f[4], f[5] = ix, iy, jx, jy, ix-jx, iy-jy
			}
		}
	}
}

// SortWidth is the number of features of one (i, j) pair of a sorting instance.
const SortWidth = 2

// Sort writes, for each of b sorting states x (n values each) and each pair (item i, position
// j), the features of value v_i at position j into dst (b x n x n x SortWidth): the value
// scaled as SortValues scales it and the position scaled by 1/n, so that both lie in [0, 1)
// whatever n and the range of the values are:
//
//	(v_i - min v)/(max v - min v + 1), j/n.
func Sort[T Float](dst, x []T, b, n int) {
	const w = SortWidth
	scale := 1 / T(n)
	v := make([]T, n)
	for s := range b {
		SortValues(v, x[s*n:][:n], 1, n)
		out := dst[s*n*n*w:][:n*n*w]
		for i := range n {
			for j := range n {
				f := out[(i*n+j)*w:][:w]
				f[0], f[1] = v[i], T(j)*scale
			}
		}
	}
}

// SortValues writes the values of each of b sorting states x (n values each) into dst, shifted
// and scaled by the state's own span, (v_i - min v)/(max v - min v + 1): for integers the span
// counts both ends, so a permutation of 0..n-1 gives exactly v_i/n, and integers drawn from a
// wider range spread over [0, 1) alike. Minimum and maximum do not depend on the items' order,
// so the networks stay permutation-equivariant.
func SortValues[T Float](dst, x []T, b, n int) {
	for s := range b {
		v, out := x[s*n:][:n], dst[s*n:][:n]
		lo, hi := v[0], v[0]
		for _, vi := range v {
			lo, hi = min(lo, vi), max(hi, vi)
		}
		scale := 1 / (hi - lo + 1)
		for i, vi := range v {
			out[i] = (vi - lo) * scale
		}
	}
}

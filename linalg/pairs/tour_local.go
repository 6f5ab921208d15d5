package pairs

import (
	"math"
	"slices"
	"sort"
)

// TourLocalWidth is the number of features of one (i, j) pair of a TSP instance in TourLocal.
const TourLocalWidth = 7

// The bounds of TourLocal's features. Beyond them a pair is "far" however far it is, so that a
// network trained at one N sees, at any larger N, only the range of features it was trained on.
// On uniform instances of N = 20 a quarter of the pairs lie beyond 3 spacings and none beyond 7,
// while at N = 200 88% lie beyond 3 and 40% beyond 8: with the bounds at 8, a model trained at 20
// scored TSP-1,000's far pairs where it had never been trained, and its tours were 91% longer
// than farthest insertion's.
const (
	// LocalSpacingCap bounds d_ij over the instance's spacing.
	LocalSpacingCap = 3
	// LocalRadiusCap bounds d_ij over a city's neighbourhood radius.
	LocalRadiusCap = 3
	// LocalRankCap bounds a neighbour's rank: the LocalRankCap-th nearest and all farther ones
	// look alike, and SPG+Successor-Local scores only the pairs where one city is among the
	// other's LocalRankCap nearest. With the centroid distance as a feature, at 10 two seeds in
	// three of a model trained at N = 20 made TSP-1,000 tours 42-46% longer than farthest
	// insertion's, at 6 one seed 28%.
	LocalRankCap = 6
	// LocalRadiusRank is the rank of the neighbour whose distance is a city's radius r_i.
	LocalRadiusRank = 3
	// LocalOffsetCap bounds the offsets along and across a city's radius, in spacings.
	LocalOffsetCap = 3
)

// The columns of TourLocal's features holding rank_i(j) and rank_j(i), each 1 at its cap.
const (
	LocalRankFrom = 3
	LocalRankTo   = 4
)

// TourLocal writes, for each of b TSP states x (each n x 2: the cities) and each ordered pair
// (i, j), features of "j follows i" that do not depend on n, on where the instance lies or on
// its scale, into dst (b x n x n x TourLocalWidth, row i, column j as in Tour):
//
//	min(d_ij / s, 3), min(d_ij / r_i, 3), min(d_ij / r_j, 3), min(rank_i(j), 6) / 6, min(rank_j(i), 6) / 6,
//	clamp((c_j - c_i) . u_i / s, ±3), clamp((c_j - c_i) . v_i / s, ±3),
//
// with d_ij the distance, s twice the instance's mean nearest-neighbour distance (1/sqrt(n) for
// uniform cities: the spacing), r_i the distance from i to its 3rd nearest city, rank_i(j)
// the number of cities k != i nearer to i than j is (0 for the nearest; ties share a rank), o the
// cities' centroid, u_i the unit vector from o to c_i (x's axis for a city at o) and v_i u_i
// turned a quarter anticlockwise.
//
// Tour's features are coordinates, from which the network learns distances in units of the
// square; trained at N = 20 its scores then mean nothing at N = 200, where every neighbour is
// 3 times nearer (SPG+Successor's tours were 12-15% above farthest insertion there). These are
// a city's neighbourhood measured in its own units, alike at every N for cities spread alike,
// which is what lets a pair network transfer; unlike the package's other features they hand the
// network a distance, but never in the reward's units (the critic learns the scale).
//
// The offsets along and across the radius tell i -> j from j -> i: over the distances and ranks
// alone the scores are nearly symmetric, and the Hungarian cover of symmetric scores pairs mutual
// neighbours into 2-cycles (a first model over those five features stalled at 4.14 on TSP-20,
// where SPG+Successor reaches 3.91). The frame is the centroid's, the same at every N; a frame of
// a city's own 3 nearest neighbours told the directions apart less well (4.03 at TSP-20). A
// city's distance from the centroid is not a feature: with it, one seed in three learned at N = 20
// a rule for the few central cities that sent TSP-1,000's many ones around the centre (tours 28%
// longer than farthest insertion's), and without it the three seeds agree within 0.03 at
// N = 200 (docs/notebook/2026-12-tsp-transfer.md).
//
// A radius or spacing of zero (coincident cities) is replaced by the next coarser one: r_i by
// s, s by 1.
func TourLocal[T Float](dst, x []T, b, n int) {
	const w = TourLocalWidth
	d := make([]float64, n*n)
	radius := make([]float64, n)
	// sorted's row i holds i's distances to the other n-1 cities, ascending: the rank of j from
	// i is the count of them below d_ij.
	sorted := make([]float64, n*(n-1))
	rank := make([]T, n*n) // rank_i(j), capped and scaled as the feature
	for s := range b {
		c := x[s*2*n:][:2*n]
		for i := range n {
			for j := i; j < n; j++ {
				dx, dy := float64(c[2*i]-c[2*j]), float64(c[2*i+1]-c[2*j+1])
				d[i*n+j] = math.Hypot(dx, dy)
				d[j*n+i] = d[i*n+j]
			}
		}
		var nearest float64
		for i := range n {
			row := sorted[i*(n-1):][:n-1]
			copy(row, d[i*n:i*n+i])
			copy(row[i:], d[i*n+i+1:(i+1)*n])
			slices.Sort(row)
			if len(row) > 0 {
				nearest += row[0]
				radius[i] = row[min(LocalRadiusRank, len(row))-1]
			}
		}
		for i := range n {
			row := sorted[i*(n-1):][:n-1]
			for j := range n {
				rank[i*n+j] = T(float64(min(rankBelow(row, d[i*n+j]), LocalRankCap)) / LocalRankCap)
			}
		}
		spacing := 2 * nearest / float64(n)
		if !(spacing > 0) {
			spacing = 1
		}
		for i := range n {
			if !(radius[i] > 0) {
				radius[i] = spacing
			}
		}
		var ox, oy float64
		for i := range n {
			ox, oy = ox+float64(c[2*i]), oy+float64(c[2*i+1])
		}
		ox, oy = ox/float64(n), oy/float64(n)
		out := dst[s*n*n*w:][:n*n*w]
		for i := range n {
			rx, ry := float64(c[2*i])-ox, float64(c[2*i+1])-oy
			ri := math.Hypot(rx, ry)
			ux, uy := 1.0, 0.0
			if ri > 0 {
				ux, uy = rx/ri, ry/ri
			}
			for j := range n {
				dij := d[i*n+j]
				f := out[(i*n+j)*w:][:w]
				f[0] = T(math.Min(dij/spacing, LocalSpacingCap))
				f[1] = T(math.Min(dij/radius[i], LocalRadiusCap))
				f[2] = T(math.Min(dij/radius[j], LocalRadiusCap))
				f[LocalRankFrom], f[LocalRankTo] = rank[i*n+j], rank[j*n+i]
				ex, ey := float64(c[2*j]-c[2*i]), float64(c[2*j+1]-c[2*i+1])
				f[5] = T(clamp((ex*ux+ey*uy)/spacing, LocalOffsetCap))
				f[6] = T(clamp((ey*ux-ex*uy)/spacing, LocalOffsetCap))
			}
		}
	}
}

// rankBelow is the number of values of the ascending slice below v.
func rankBelow(asc []float64, v float64) int {
	return sort.SearchFloat64s(asc, v)
}

// clamp is v held to [-limit, limit].
func clamp(v, limit float64) float64 { return math.Max(-limit, math.Min(v, limit)) }

package pairs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveTourLocal is TourLocal's definition for one instance, each quantity counted out by brute
// force: ranks by counting nearer cities, the radius as the LocalRadiusRank-th smallest distance
// by removing the minimum that many times, no sorting.
func naiveTourLocal(c []float64, n int) []float64 {
	dist := func(i, j int) float64 { return math.Hypot(c[2*i]-c[2*j], c[2*i+1]-c[2*j+1]) }
	var nearest float64
	radius := make([]float64, n)
	for i := range n {
		var others []float64
		for k := range n {
			if k != i {
				others = append(others, dist(i, k))
			}
		}
		if len(others) == 0 {
			continue
		}
		taken := make([]bool, len(others))
		var kth float64
		for range min(LocalRadiusRank, len(others)) {
			m := -1
			for k, v := range others {
				if !taken[k] && (m < 0 || v < others[m]) {
					m = k
				}
			}
			taken[m], kth = true, others[m]
		}
		radius[i] = kth
		lo := math.Inf(1)
		for _, v := range others {
			lo = math.Min(lo, v)
		}
		nearest += lo
	}
	s := 2 * nearest / float64(n)
	if s <= 0 {
		s = 1
	}
	for i := range radius {
		if radius[i] <= 0 {
			radius[i] = s
		}
	}
	rank := func(i, j int) int {
		r := 0
		for k := range n {
			if k != i && dist(i, k) < dist(i, j) {
				r++
			}
		}
		return r
	}
	var ox, oy float64
	for i := range n {
		ox += c[2*i] / float64(n)
		oy += c[2*i+1] / float64(n)
	}
	out := make([]float64, n*n*TourLocalWidth)
	for i := range n {
		// the radius's direction as an angle, the offset turned by minus it
		angle := math.Atan2(c[2*i+1]-oy, c[2*i]-ox)
		for j := range n {
			d := dist(i, j)
			f := out[(i*n+j)*TourLocalWidth:]
			f[0] = math.Min(d/s, LocalSpacingCap)
			f[1] = math.Min(d/radius[i], LocalRadiusCap)
			f[2] = math.Min(d/radius[j], LocalRadiusCap)
			f[3] = float64(min(rank(i, j), LocalRankCap)) / LocalRankCap
			f[4] = float64(min(rank(j, i), LocalRankCap)) / LocalRankCap
			sin, cos := math.Sincos(-angle)
			ex, ey := c[2*j]-c[2*i], c[2*j+1]-c[2*i+1]
			f[5] = math.Max(-LocalOffsetCap, math.Min((ex*cos-ey*sin)/s, LocalOffsetCap))
			f[6] = math.Max(-LocalOffsetCap, math.Min((ex*sin+ey*cos)/s, LocalOffsetCap))
		}
	}
	return out
}

func randomCities(rng *rand.Rand, b, n int) []float64 {
	x := make([]float64, b*2*n)
	for i := range x {
		x[i] = rng.Float64()
	}
	return x
}

// TestTourLocal checks every feature against naiveTourLocal, on uniform instances of several
// sizes (1 and 2 cities included) and on one with coincident cities, whose radii and spacing
// fall back.
func TestTourLocal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 3, 4, 7, 25} {
		const b = 3
		x := randomCities(rng, b, n)
		if n == 7 {
			copy(x[2:8], []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}) // state 0: cities 1-3 coincide
		}
		dst := make([]float64, b*n*n*TourLocalWidth)
		TourLocal(dst, x, b, n)
		for s := range b {
			want := naiveTourLocal(x[s*2*n:][:2*n], n)
			got := dst[s*n*n*TourLocalWidth:][:n*n*TourLocalWidth]
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-9 || math.IsNaN(got[k]) {
					t.Fatalf("n %d state %d pair (%d,%d) feature %d: %g, want %g", n, s, k/TourLocalWidth/n, k/TourLocalWidth%n, k%TourLocalWidth, got[k], want[k])
				}
			}
		}
	}
	x := make([]float64, 2*3) // every city at the origin: every feature 0, none NaN
	dst := make([]float64, 3*3*TourLocalWidth)
	TourLocal(dst, x, 1, 3)
	for k, v := range dst {
		if v != 0 {
			t.Fatalf("coincident cities: feature %d of pair %d is %g, want 0", k%TourLocalWidth, k/TourLocalWidth, v)
		}
	}
}

// TestTourLocalIsInvariant checks what lets a network over these features transfer: the same
// features for the instance moved, scaled by a power of two and turned by a quarter (each exact
// in floating point), and relabelling the cities relabels the pairs.
func TestTourLocalIsInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 30
	x := randomCities(rng, 1, n)
	want := make([]float64, n*n*TourLocalWidth)
	TourLocal(want, x, 1, n)
	moved := make([]float64, 2*n)
	for i := range n {
		// a quarter turn, a scale of 4 and a shift by integers keep every distance's ratio exact
		moved[2*i], moved[2*i+1] = 4*(-x[2*i+1])+3, 4*x[2*i]-5
	}
	got := make([]float64, n*n*TourLocalWidth)
	TourLocal(got, moved, 1, n)
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-9 {
			t.Fatalf("moved instance: pair %d feature %d is %g, want %g", k/TourLocalWidth, k%TourLocalWidth, got[k], want[k])
		}
	}
	perm := rng.Perm(n)
	relabelled := make([]float64, 2*n)
	for i, p := range perm {
		relabelled[2*p], relabelled[2*p+1] = x[2*i], x[2*i+1]
	}
	TourLocal(got, relabelled, 1, n)
	for i := range n {
		for j := range n {
			for f := range TourLocalWidth {
				g, w := got[(perm[i]*n+perm[j])*TourLocalWidth+f], want[(i*n+j)*TourLocalWidth+f]
				if math.Abs(g-w) > 1e-9 {
					t.Fatalf("relabelled: pair (%d,%d) feature %d is %g, want %g", i, j, f, g, w)
				}
			}
		}
	}
}

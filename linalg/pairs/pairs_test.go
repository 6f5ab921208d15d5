package pairs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMatching checks every feature against the definition, written out per instance with
// separate A and B slices.
func TestMatching(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const b, n = 3, 5
	x := make([]float64, b*4*n)
	for i := range x {
		x[i] = rng.Float64()
	}
	dst := make([]float64, b*n*n*MatchingWidth)
	Matching(dst, x, b, n)
	for s := range b {
		for i := range n {
			for j := range n {
				ax, ay := x[s*4*n+2*j], x[s*4*n+2*j+1]
				bx, by := x[s*4*n+2*n+2*i], x[s*4*n+2*n+2*i+1]
				want := []float64{bx, by, ax, ay, bx - ax, by - ay}
				got := dst[((s*n+i)*n+j)*MatchingWidth:][:MatchingWidth]
				for f := range want {
					if math.Abs(got[f]-want[f]) > 1e-12 {
						t.Fatalf("state %d pair (%d,%d) feature %d: %g, want %g", s, i, j, f, got[f], want[f])
					}
				}
			}
		}
	}
}

// TestTour checks every feature against the definition: Matching's with both sets the cities.
func TestTour(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const b, n = 3, 5
	x := make([]float64, b*2*n)
	for i := range x {
		x[i] = rng.Float64()
	}
	dst := make([]float64, b*n*n*TourWidth)
	Tour(dst, x, b, n)
	for s := range b {
		for i := range n {
			for j := range n {
				ix, iy := x[s*2*n+2*i], x[s*2*n+2*i+1]
				jx, jy := x[s*2*n+2*j], x[s*2*n+2*j+1]
				want := []float64{ix, iy, jx, jy, ix - jx, iy - jy}
				got := dst[((s*n+i)*n+j)*TourWidth:][:TourWidth]
				for f := range want {
					if got[f] != want[f] {
						t.Fatalf("state %d pair (%d,%d) feature %d: %g, want %g", s, i, j, f, got[f], want[f])
					}
				}
			}
		}
	}
}

// TestSort checks every feature against the definition: on permutations of 0..n-1 (the first
// two states) the value feature is exactly v_i/n, as before the values were scaled by their
// span, so that models trained then see the same inputs; on integers from a wider range (the
// third) it is (v_i - min)/(max - min + 1).
func TestSort(t *testing.T) {
	const b, n = 3, 4
	x := []float32{3, 0, 2, 1, 1, 3, 0, 2, 17, 5, 39, 12}
	dst := make([]float32, b*n*n*SortWidth)
	Sort(dst, x, b, n)
	for s := range b {
		for i := range n {
			for j := range n {
				v := x[s*n+i] * (1 / float32(n))
				if s == 2 {
					v = (x[s*n+i] - 5) / 35
				}
				want := []float32{v, float32(j) / n}
				got := dst[((s*n+i)*n+j)*SortWidth:][:SortWidth]
				for f := range want {
					if s < 2 && got[f] != want[f] || math.Abs(float64(got[f]-want[f])) > 1e-6 {
						t.Fatalf("state %d pair (%d,%d) feature %d: %g, want %g", s, i, j, f, got[f], want[f])
					}
				}
			}
		}
	}
}

// TestSortValuesShift checks that the scaled values do not change when every value of a state
// moves by the same integer, and stay in [0, 1).
func TestSortValuesShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 30
	x, shifted := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = float64(rng.IntN(10 * n))
		shifted[i] = x[i] + 1000
	}
	a, c := make([]float64, n), make([]float64, n)
	SortValues(a, x, 1, n)
	SortValues(c, shifted, 1, n)
	for i := range a {
		if math.Abs(a[i]-c[i]) > 1e-12 || a[i] < 0 || a[i] >= 1 {
			t.Fatalf("value %d: %g, shifted by 1000 %g; want equal and in [0, 1)", i, a[i], c[i])
		}
	}
}

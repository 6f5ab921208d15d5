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

// TestSort checks every feature against the definition.
func TestSort(t *testing.T) {
	const b, n = 2, 4
	x := []float32{3, 0, 2, 1, 1, 3, 0, 2}
	dst := make([]float32, b*n*n*SortWidth)
	Sort(dst, x, b, n)
	for s := range b {
		for i := range n {
			for j := range n {
				v, p := float64(x[s*n+i])/n, float64(j)/n
				want := []float64{v, p}
				got := dst[((s*n+i)*n+j)*SortWidth:][:SortWidth]
				for f := range want {
					if math.Abs(float64(got[f])-want[f]) > 1e-6 {
						t.Fatalf("state %d pair (%d,%d) feature %d: %g, want %g", s, i, j, f, got[f], want[f])
					}
				}
			}
		}
	}
}

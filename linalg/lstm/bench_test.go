package lstm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkForward times the PN-AC encoder's shape, B = H = 128 over T = I = N for N = 20 and
// 50, in float32.
func BenchmarkForward(b *testing.B) {
	for _, d := range []Dims{{B: 128, T: 20, I: 20, H: 128}, {B: 128, T: 50, I: 50, H: 128}} {
		b.Run(fmt.Sprintf("B%d_T%d_I%d_H%d", d.B, d.T, d.I, d.H), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 5))
			r := func(n int) []float32 {
				s := make([]float32, n)
				for i := range s {
					s[i] = 0.1 * float32(rng.NormFloat64())
				}
				return s
			}
			out, x, saved := make([]float32, d.B*d.T*d.H), r(d.B*d.T*d.I), make([]float32, SavedLen(d))
			wih, whh, bih, bhh := r(4*d.H*d.I), r(4*d.H*d.H), r(4*d.H), r(4*d.H)
			b.ReportAllocs()
			for b.Loop() {
				Forward(d, out, nil, x, nil, nil, wih, whh, bih, bhh, saved)
			}
		})
	}
}

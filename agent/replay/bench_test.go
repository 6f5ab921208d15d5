package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkReplayMinibatch times sampling 128 transitions and decoding their M and P.
func BenchmarkReplayMinibatch(b *testing.B) {
	for _, n := range []int{10, 20, 50} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := New(n, 10000)
			fillReplay(r, 10000)
			rng := rand.New(rand.NewPCG(1, 2))
			slots := make([]int, 128)
			m, p := make([]float32, n*n), make([]float32, n*n)
			b.ReportAllocs()
			for b.Loop() {
				r.Sample(rng, slots)
				for _, s := range slots {
					r.Get(s, m, p)
				}
			}
		})
	}
}

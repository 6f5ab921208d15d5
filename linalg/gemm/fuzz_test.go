package gemm

import (
	"math/rand/v2"
	"testing"
)

// FuzzSgemm checks every supported kernel against the float64 product on fuzzed shapes (up to
// 80 x 80 x 300), transposes, paddings and scalars; the seeds below run with every go test.
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint16(1), false, false, uint8(0), uint8(0), uint8(0), float32(1), float32(0), uint64(1))
	f.Add(uint8(13), uint8(33), uint16(257), true, false, uint8(1), uint8(0), uint8(3), float32(-2), float32(1), uint64(2))
	f.Add(uint8(25), uint8(31), uint16(7), false, true, uint8(0), uint8(5), uint8(1), float32(0.5), float32(0.25), uint64(3))
	f.Add(uint8(12), uint8(32), uint16(256), true, true, uint8(2), uint8(2), uint8(0), float32(1), float32(-1), uint64(4))
	f.Add(uint8(7), uint8(65), uint16(129), false, false, uint8(3), uint8(1), uint8(2), float32(0), float32(3), uint64(5))
	f.Fuzz(func(t *testing.T, m, n uint8, k uint16, tA, tB bool, padA, padB, padC uint8, alpha, beta float32, seed uint64) {
		if alpha != alpha || beta != beta || alpha > 1e6 || alpha < -1e6 || beta > 1e6 || beta < -1e6 {
			t.Skip("scalars outside the range the tolerance covers")
		}
		p := problem{tA: tA, tB: tB, m: 1 + int(m)%80, n: 1 + int(n)%80, k: 1 + int(k)%300, alpha: alpha, beta: beta}
		p = p.withPads(int(padA%8), int(padB%8), int(padC%8))
		a, b, c := p.operands(rand.New(rand.NewPCG(seed, 7)))
		for _, kn := range supported {
			check(t, kn, p, a, b, c)
		}
	})
}

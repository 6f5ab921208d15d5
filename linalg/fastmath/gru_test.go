package fastmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gruRow is one row's inputs to GRUGates and GRUGatesBackward, in float32.
type gruRow struct {
	gi, gh, bi, bh, hp, dout, carry []float32
}

func randRow(rng *rand.Rand, h int) gruRow {
	r := func(n int, scale float64) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(scale * rng.NormFloat64())
		}
		return s
	}
	return gruRow{gi: r(3*h, 1.5), gh: r(3*h, 1.5), bi: r(3*h, 0.5), bh: r(3*h, 0.5), hp: r(h, 0.7), dout: r(h, 1), carry: r(h, 1)}
}

// TestGRUGates checks GRUGates and GRUGatesBackward against the equations evaluated in float64
// from the same float32 inputs, at widths with and without a vector body and a scalar tail. The
// tolerances are a few float32 roundings of the values' size.
func TestGRUGates(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	for _, h := range []int{1, 3, 7, 8, 9, 16, 21, 128, 131} {
		for range 3 {
			in := randRow(rng, h)
			gi := append([]float32(nil), in.gi...)
			hn, hNew := make([]float32, h), make([]float32, h+1)
			hNew[h] = 42
			GRUGates(gi, in.gh, in.bi, in.bh, hn, in.hp, hNew[:h])
			if hNew[h] != 42 {
				t.Fatalf("h=%d: GRUGates wrote past hNew", h)
			}
			f := func(s []float32, i int) float64 { return float64(s[i]) }
			r, z, n := make([]float64, h), make([]float64, h), make([]float64, h)
			for j := range h {
				r[j] = sig(f(in.gi, j) + f(in.bi, j) + f(in.gh, j) + f(in.bh, j))
				z[j] = sig(f(in.gi, h+j) + f(in.bi, h+j) + f(in.gh, h+j) + f(in.bh, h+j))
				hnj := f(in.gh, 2*h+j) + f(in.bh, 2*h+j)
				n[j] = math.Tanh(f(in.gi, 2*h+j) + f(in.bi, 2*h+j) + r[j]*hnj)
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"r", f(gi, j), r[j]}, {"z", f(gi, h+j), z[j]}, {"n", f(gi, 2*h+j), n[j]},
					{"hn", f(hn, j), hnj}, {"hNew", f(hNew, j), (1-z[j])*n[j] + z[j]*f(in.hp, j)},
				} {
					if e := math.Abs(c.got - c.want); !(e <= 1e-6*(1+math.Abs(c.want))) {
						t.Fatalf("h=%d: %s[%d] = %v, want %v", h, c.name, j, c.got, c.want)
					}
				}
			}

			// The backward pass from GRUGates' own outputs, against the derivatives of the
			// equations at those outputs.
			g, carry := make([]float32, 4*h+1), append([]float32(nil), in.carry...)
			g[4*h] = 42
			GRUGatesBackward(g[:4*h], carry, in.dout, gi, hn, in.hp)
			if g[4*h] != 42 {
				t.Fatalf("h=%d: GRUGatesBackward wrote past g", h)
			}
			for j := range h {
				rj, zj, nj, hnj := f(gi, j), f(gi, h+j), f(gi, 2*h+j), f(hn, j)
				dh := f(in.dout, j) + f(in.carry, j)
				dan := dh * (1 - zj) * (1 - nj*nj)
				for _, c := range []struct {
					name      string
					got, want float64
				}{
					{"gnx", f(g, j), dan}, {"gr", f(g, h+j), dan * hnj * rj * (1 - rj)},
					{"gz", f(g, 2*h+j), dh * (f(in.hp, j) - nj) * zj * (1 - zj)},
					{"gnh", f(g, 3*h+j), dan * rj}, {"carry", f(carry, j), dh * zj},
				} {
					if e := math.Abs(c.got - c.want); !(e <= 1e-6*(1+math.Abs(c.want))) {
						t.Fatalf("h=%d: %s[%d] = %v, want %v", h, c.name, j, c.got, c.want)
					}
				}
			}
		}
	}
}

func TestGRUGatesPanicsOnBadLength(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("GRUGates accepted a short gh")
		}
	}()
	h := 4
	GRUGates(make([]float32, 3*h), make([]float32, 3*h-1), make([]float32, 3*h), make([]float32, 3*h),
		make([]float32, h), make([]float32, h), make([]float32, h))
}

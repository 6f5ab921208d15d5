package lstm

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/backend"
)

// TestForwardStepsMatchOneStepCalls checks that a T-step Forward, which reads a transposed copy
// of Whh, gives what T chained one-step calls give with Whh as the BLAS's transposed operand:
// bit for bit where the BLAS promises shape-independent rounding (backend.ExactSplits), else to
// float32 rounding. float64 calls in between exercise the pooled storage's other type.
func TestForwardStepsMatchOneStepCalls(t *testing.T) {
	d := Dims{B: 5, T: 4, I: 3, H: 24}
	rng := rand.New(rand.NewPCG(3, 4))
	in := randInputs(d, rng)
	f32 := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	x, h0, c0, wih, whh, bih, bhh := f32(in.x), f32(in.h0), f32(in.c0), f32(in.wih), f32(in.whh), f32(in.bih), f32(in.bhh)

	whole := make([]float32, d.B*d.T*d.H)
	Forward(d, whole, nil, x, h0, c0, wih, whh, bih, bhh, make([]float32, SavedLen(d)))

	one := Dims{B: d.B, T: 1, I: d.I, H: d.H}
	h, c := append([]float32(nil), h0...), append([]float32(nil), c0...)
	xs, hn, cn := make([]float32, d.B*d.I), make([]float32, d.B*d.H), make([]float32, d.B*d.H)
	for ti := range d.T {
		for bi := range d.B {
			copy(xs[bi*d.I:(bi+1)*d.I], x[(bi*d.T+ti)*d.I:])
		}
		Forward(one, hn, cn, xs, h, c, wih, whh, bih, bhh, make([]float32, SavedLen(one)))
		Forward(d, make([]float64, d.B*d.T*d.H), nil, in.x, nil, nil, in.wih, in.whh, in.bih, in.bhh, make([]float64, SavedLen(d)))
		for bi := range d.B {
			for j := range d.H {
				got, want := whole[(bi*d.T+ti)*d.H+j], hn[bi*d.H+j]
				if backend.ExactSplits && got != want || math.Abs(float64(got-want)) > 1e-5 {
					t.Fatalf("step %d row %d unit %d: T-step call %v, one-step calls %v", ti, bi, j, got, want)
				}
			}
		}
		h, c, hn, cn = hn, cn, h, c
	}
}

package gru

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"spg-tui/linalg/backend"
)

func TestMain(m *testing.M) {
	backend.EnsureCoreType()
	os.Exit(m.Run())
}

func randSlice(rng *rand.Rand, n int, scale float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = scale * rng.NormFloat64()
	}
	return s
}

func nanSlice[F Float](n int) []F {
	s := make([]F, n)
	for i := range s {
		s[i] = F(math.NaN())
	}
	return s
}

func convert[F Float](s []float64) []F {
	if s == nil {
		return nil
	}
	out := make([]F, len(s))
	for i, v := range s {
		out[i] = F(v)
	}
	return out
}

func randParams(rng *rand.Rand, d Dims, withH0 bool) naiveParams {
	// Weights about 1/sqrt(fan-in) keep the gates away from saturation, as in PyTorch's init.
	p := naiveParams{
		x:   randSlice(rng, d.B*d.T*d.I, 1),
		wih: randSlice(rng, 3*d.H*d.I, 1/math.Sqrt(float64(d.I))),
		whh: randSlice(rng, 3*d.H*d.H, 1/math.Sqrt(float64(d.H))),
		bih: randSlice(rng, 3*d.H, 0.5),
		bhh: randSlice(rng, 3*d.H, 0.5),
	}
	if withH0 {
		p.h0 = randSlice(rng, d.B*d.H, 0.5)
	}
	return p
}

// grads are Backward's outputs.
type grads[F Float] struct{ dx, dh0, dwih, dwhh, dbih, dbhh []F }

// run calls Forward and then Backward with dout, on NaN-filled outputs and scratch so that
// anything not overwritten shows up.
func run[F Float](d Dims, p naiveParams, dout []float64, reverse bool) ([]F, grads[F]) {
	x, h0 := convert[F](p.x), convert[F](p.h0)
	wih, whh, bih, bhh := convert[F](p.wih), convert[F](p.whh), convert[F](p.bih), convert[F](p.bhh)
	out := nanSlice[F](d.B * d.T * d.H)
	saved := nanSlice[F](SavedLen(d))
	work := nanSlice[F](WorkLen(d))
	Forward(d, out, x, h0, wih, whh, bih, bhh, saved, work, reverse)
	g := grads[F]{
		dx: nanSlice[F](len(x)), dh0: nanSlice[F](d.B * d.H),
		dwih: nanSlice[F](len(wih)), dwhh: nanSlice[F](len(whh)),
		dbih: nanSlice[F](len(bih)), dbhh: nanSlice[F](len(bhh)),
	}
	work = nanSlice[F](WorkLen(d))
	Backward(d, g.dx, g.dh0, g.dwih, g.dwhh, g.dbih, g.dbhh, convert[F](dout), x, wih, whh, saved, work, reverse)
	return out, g
}

func maxAbsDiff[F Float](got []F, want []float64) float64 {
	var m float64
	for i := range want {
		d := math.Abs(float64(got[i]) - want[i])
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = max(m, d)
	}
	return m
}

// cases covers both directions, with and without h0, a serial, a single-step and a
// parallel (B*H >= minParallel) size.
func cases() []struct {
	d       Dims
	reverse bool
	h0      bool
} {
	var cs []struct {
		d       Dims
		reverse bool
		h0      bool
	}
	for _, d := range []Dims{{B: 2, T: 3, I: 2, H: 3}, {B: 1, T: 1, I: 1, H: 2}, {B: 16, T: 3, I: 5, H: minParallel / 16}} {
		for _, reverse := range []bool{false, true} {
			for _, h0 := range []bool{false, true} {
				cs = append(cs, struct {
					d       Dims
					reverse bool
					h0      bool
				}{d, reverse, h0})
			}
		}
	}
	return cs
}

func name(d Dims, reverse, h0 bool) string {
	return fmt.Sprintf("B%dT%dI%dH%d_reverse=%v_h0=%v", d.B, d.T, d.I, d.H, reverse, h0)
}

func TestForwardMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range cases() {
		p := randParams(rng, c.d, c.h0)
		want := naiveForward(c.d, p, c.reverse)
		dout := make([]float64, len(want))
		out64, _ := run[float64](c.d, p, dout, c.reverse)
		if e := maxAbsDiff(out64, want); e > 1e-12 {
			t.Errorf("%s: float64 out differs from naive by %g", name(c.d, c.reverse, c.h0), e)
		}
		out32, _ := run[float32](c.d, p, dout, c.reverse)
		if e := maxAbsDiff(out32, want); e > 2e-5 {
			t.Errorf("%s: float32 out differs from naive by %g", name(c.d, c.reverse, c.h0), e)
		}
	}
}

// gradInput is an input of the naive loss with Backward's gradient for it.
type gradInput struct {
	name      string
	val, grad []float64
}

// gradInputs runs Forward and Backward in float64 on random parameters (with h0 if withH0) and a
// random output gradient w, and returns the parameters, w, and each input with its gradient;
// without h0, p.h0 is the zero state Forward started from, whose gradient is dh0.
func gradInputs(rng *rand.Rand, d Dims, withH0, reverse bool) (naiveParams, []float64, []gradInput) {
	p := randParams(rng, d, withH0)
	w := randSlice(rng, d.B*d.T*d.H, 1)
	_, g := run[float64](d, p, w, reverse)
	if p.h0 == nil {
		p.h0 = make([]float64, d.B*d.H)
	}
	return p, w, []gradInput{{"x", p.x, g.dx}, {"h0", p.h0, g.dh0}, {"wih", p.wih, g.dwih},
		{"whh", p.whh, g.dwhh}, {"bih", p.bih, g.dbih}, {"bhh", p.bhh, g.dbhh}}
}

// TestBackwardFiniteDifferences checks every element of every gradient against central
// differences of the naive forward pass, at tiny sizes.
func TestBackwardFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	d := Dims{B: 2, T: 3, I: 2, H: 3}
	for _, reverse := range []bool{false, true} {
		for _, withH0 := range []bool{false, true} {
			p, w, inputs := gradInputs(rng, d, withH0, reverse)
			for _, in := range inputs {
				const eps = 1e-6
				for i := range in.val {
					v := in.val[i]
					in.val[i] = v + eps
					lp := naiveLoss(d, p, w, reverse)
					in.val[i] = v - eps
					lm := naiveLoss(d, p, w, reverse)
					in.val[i] = v
					fd := (lp - lm) / (2 * eps)
					if e := math.Abs(in.grad[i] - fd); !(e <= 1e-8*(1+math.Abs(fd))) {
						t.Errorf("reverse=%v h0=%v: d%s[%d] = %.10g, finite difference %.10g",
							reverse, withH0, in.name, i, in.grad[i], fd)
					}
				}
			}
		}
	}
}

// TestBackwardDirectional checks all gradients at every case size (including the parallel
// path) along one random direction per input: <grad, v> against a central difference of
// the naive loss along v.
func TestBackwardDirectional(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range cases() {
		p, w, inputs := gradInputs(rng, c.d, c.h0, c.reverse)
		for _, in := range inputs {
			v := randSlice(rng, len(in.val), 1)
			orig := append([]float64(nil), in.val...)
			const eps = 1e-6
			var dot float64
			for i := range v {
				dot += in.grad[i] * v[i]
				in.val[i] = orig[i] + eps*v[i]
			}
			lp := naiveLoss(c.d, p, w, c.reverse)
			for i := range v {
				in.val[i] = orig[i] - eps*v[i]
			}
			lm := naiveLoss(c.d, p, w, c.reverse)
			copy(in.val, orig)
			fd := (lp - lm) / (2 * eps)
			if e := math.Abs(dot - fd); !(e <= 1e-7*(1+math.Abs(fd))) {
				t.Errorf("%s: <d%s, v> = %.10g, finite difference %.10g", name(c.d, c.reverse, c.h0), in.name, dot, fd)
			}
		}
	}
}

func TestFloat32MatchesFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, c := range cases() {
		p := randParams(rng, c.d, c.h0)
		dout := randSlice(rng, c.d.B*c.d.T*c.d.H, 1)
		out64, g64 := run[float64](c.d, p, dout, c.reverse)
		out32, g32 := run[float32](c.d, p, dout, c.reverse)
		for _, cmp := range []struct {
			name string
			f32  []float32
			f64  []float64
		}{
			{"out", out32, out64}, {"dx", g32.dx, g64.dx}, {"dh0", g32.dh0, g64.dh0},
			{"dwih", g32.dwih, g64.dwih}, {"dwhh", g32.dwhh, g64.dwhh},
			{"dbih", g32.dbih, g64.dbih}, {"dbhh", g32.dbhh, g64.dbhh},
		} {
			var scale float64
			for _, v := range cmp.f64 {
				scale = max(scale, math.Abs(v))
			}
			if e := maxAbsDiff(cmp.f32, cmp.f64); e > 1e-4*(1+scale) {
				t.Errorf("%s: float32 %s differs from float64 by %g (scale %g)", name(c.d, c.reverse, c.h0), cmp.name, e, scale)
			}
		}
	}
}

func TestPanicsOnBadLength(t *testing.T) {
	d := Dims{B: 2, T: 3, I: 2, H: 3}
	defer func() {
		if recover() == nil {
			t.Error("Forward accepted a short x")
		}
	}()
	n := d.B * d.T * d.H
	Forward(d, make([]float64, n), make([]float64, d.B*d.T*d.I-1), nil,
		make([]float64, 3*d.H*d.I), make([]float64, 3*d.H*d.H), make([]float64, 3*d.H), make([]float64, 3*d.H),
		make([]float64, SavedLen(d)), make([]float64, WorkLen(d)), false)
}

// TestBackwardNilGradients checks that each gradient may be nil (not wanted) and that the
// others are then those of a full Backward, at every case size: bit for bit where the BLAS
// promises that a product split differently gives the same bits (backend.ExactSplits), else to
// float32 rounding.
func TestBackwardNilGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, c := range cases() {
		p := randParams(rng, c.d, c.h0)
		dout := randSlice(rng, c.d.B*c.d.T*c.d.H, 1)
		_, full := run[float32](c.d, p, dout, c.reverse)
		x, h0 := convert[float32](p.x), convert[float32](p.h0)
		wih, whh, bih, bhh := convert[float32](p.wih), convert[float32](p.whh), convert[float32](p.bih), convert[float32](p.bhh)
		saved := make([]float32, SavedLen(c.d))
		Forward(c.d, make([]float32, len(dout)), x, h0, wih, whh, bih, bhh, saved, make([]float32, WorkLen(c.d)), c.reverse)
		// Masks over dx, dh0, dwih, dwhh, dbih, dbhh: frozen weights, no input gradient, one
		// bias alone each way, nothing.
		for _, keep := range [][6]bool{
			{true, true, false, false, false, false},
			{false, false, true, true, true, true},
			{true, false, false, false, false, true},
			{false, true, false, false, true, false},
			{false, false, false, false, false, false},
		} {
			want := [6][]float32{full.dx, full.dh0, full.dwih, full.dwhh, full.dbih, full.dbhh}
			var got [6][]float32
			for i, k := range keep {
				if k {
					got[i] = nanSlice[float32](len(want[i]))
				}
			}
			Backward(c.d, got[0], got[1], got[2], got[3], got[4], got[5], convert[float32](dout), x, wih, whh,
				saved, nanSlice[float32](WorkLen(c.d)), c.reverse)
			for i := range got {
				for j := range got[i] { // nil, not wanted, has no elements
					g, w := float64(got[i][j]), float64(want[i][j])
					if backend.ExactSplits && g != w || math.Abs(g-w) > 1e-5*(1+math.Abs(w)) || math.IsNaN(g) {
						t.Fatalf("%s keep=%v: gradient %d differs at %d: %v, full run %v",
							name(c.d, c.reverse, c.h0), keep, i, j, got[i][j], want[i][j])
					}
				}
			}
		}
	}
}

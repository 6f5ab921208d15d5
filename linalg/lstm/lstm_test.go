package lstm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveForward is a direct scalar transcription of PyTorch's LSTM equations; h0 and c0 may be
// nil for zeros. It returns the outputs (B, T, H) and the final cell states (B, H).
func naiveForward(d Dims, x, h0, c0, wih, whh, bih, bhh []float64) (out, cT []float64) {
	out, cT = make([]float64, d.B*d.T*d.H), make([]float64, d.B*d.H)
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	for b := range d.B {
		hp, cp := make([]float64, d.H), make([]float64, d.H)
		if h0 != nil {
			copy(hp, h0[b*d.H:])
		}
		if c0 != nil {
			copy(cp, c0[b*d.H:])
		}
		for t := range d.T {
			xt := x[(b*d.T+t)*d.I:][:d.I]
			pre := make([]float64, 4*d.H)
			for r := range 4 * d.H {
				pre[r] = bih[r] + bhh[r]
				for k := range d.I {
					pre[r] += wih[r*d.I+k] * xt[k]
				}
				for k := range d.H {
					pre[r] += whh[r*d.H+k] * hp[k]
				}
			}
			hn, cn := make([]float64, d.H), make([]float64, d.H)
			for j := range d.H {
				i, f, g, o := sig(pre[j]), sig(pre[d.H+j]), math.Tanh(pre[2*d.H+j]), sig(pre[3*d.H+j])
				cn[j] = f*cp[j] + i*g
				hn[j] = o * math.Tanh(cn[j])
			}
			copy(out[(b*d.T+t)*d.H:], hn)
			hp, cp = hn, cn
		}
		copy(cT[b*d.H:], cp)
	}
	return out, cT
}

type inputs struct{ x, h0, c0, wih, whh, bih, bhh []float64 }

func randInputs(d Dims, rng *rand.Rand) inputs {
	r := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()*2 - 1
		}
		return v
	}
	return inputs{r(d.B * d.T * d.I), r(d.B * d.H), r(d.B * d.H), r(4 * d.H * d.I), r(4 * d.H * d.H), r(4 * d.H), r(4 * d.H)}
}

func TestForwardMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []Dims{{1, 1, 1, 1}, {3, 4, 2, 5}, {2, 7, 6, 3}} {
		in := randInputs(d, rng)
		for _, zero := range []bool{false, true} {
			h0, c0 := in.h0, in.c0
			if zero {
				h0, c0 = nil, nil
			}
			want, wantC := naiveForward(d, in.x, h0, c0, in.wih, in.whh, in.bih, in.bhh)
			out, cT := make([]float64, len(want)), make([]float64, len(wantC))
			Forward(d, out, cT, in.x, h0, c0, in.wih, in.whh, in.bih, in.bhh, make([]float64, SavedLen(d)))
			for i := range want {
				if math.Abs(out[i]-want[i]) > 1e-12 {
					t.Fatalf("%+v zero=%v: out[%d] = %v, want %v", d, zero, i, out[i], want[i])
				}
			}
			for i := range wantC {
				if math.Abs(cT[i]-wantC[i]) > 1e-12 {
					t.Fatalf("%+v zero=%v: cT[%d] = %v, want %v", d, zero, i, cT[i], wantC[i])
				}
			}
			// float32 agrees with float64 to single precision.
			f32 := func(v []float64) []float32 {
				if v == nil {
					return nil
				}
				o := make([]float32, len(v))
				for i, x := range v {
					o[i] = float32(x)
				}
				return o
			}
			out32 := make([]float32, len(want))
			Forward(d, out32, nil, f32(in.x), f32(h0), f32(c0), f32(in.wih), f32(in.whh), f32(in.bih), f32(in.bhh), make([]float32, SavedLen(d)))
			for i := range want {
				if math.Abs(float64(out32[i])-want[i]) > 1e-5 {
					t.Fatalf("%+v float32: out[%d] = %v, want %v", d, i, out32[i], want[i])
				}
			}
		}
	}
}

// TestBackwardMatchesFiniteDifferences checks every gradient of L = sum(out * w) + sum(cT * u)
// against central differences of the naive forward pass.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := Dims{B: 3, T: 4, I: 3, H: 4}
	in := randInputs(d, rng)
	w, u := randInputs(Dims{B: d.B, T: d.T, I: d.H, H: d.H}, rng).x, randInputs(d, rng).h0
	loss := func() float64 {
		out, cT := naiveForward(d, in.x, in.h0, in.c0, in.wih, in.whh, in.bih, in.bhh)
		l := 0.0
		for i := range out {
			l += out[i] * w[i]
		}
		for i := range cT {
			l += cT[i] * u[i]
		}
		return l
	}
	saved := make([]float64, SavedLen(d))
	out, cT := make([]float64, d.B*d.T*d.H), make([]float64, d.B*d.H)
	Forward(d, out, cT, in.x, in.h0, in.c0, in.wih, in.whh, in.bih, in.bhh, saved)
	g := inputs{make([]float64, len(in.x)), make([]float64, len(in.h0)), make([]float64, len(in.c0)),
		make([]float64, len(in.wih)), make([]float64, len(in.whh)), make([]float64, len(in.bih)), make([]float64, len(in.bhh))}
	Backward(d, w, u, in.x, in.wih, in.whh, saved, g.x, g.h0, g.c0, g.wih, g.whh, g.bih, g.bhh, make([]float64, WorkLen(d)))
	for _, c := range []struct {
		name string
		v, g []float64
	}{{"x", in.x, g.x}, {"h0", in.h0, g.h0}, {"c0", in.c0, g.c0}, {"wih", in.wih, g.wih}, {"whh", in.whh, g.whh}, {"bih", in.bih, g.bih}, {"bhh", in.bhh, g.bhh}} {
		for i := range c.v {
			const eps = 1e-6
			orig := c.v[i]
			c.v[i] = orig + eps
			lp := loss()
			c.v[i] = orig - eps
			lm := loss()
			c.v[i] = orig
			num := (lp - lm) / (2 * eps)
			if math.Abs(num-c.g[i]) > 1e-7*math.Max(1, math.Abs(num)) {
				t.Fatalf("d%s[%d] = %v, finite differences %v", c.name, i, c.g[i], num)
			}
		}
	}
}

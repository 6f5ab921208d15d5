package batchnorm

import (
	"math"
	"math/rand/v2"
	"testing"
)

type shape struct{ b, c, f int }

// shapes has a serial and a parallel (b*c*f >= minParallel) case, and rows of a length that
// the vector kernels (8 float32 at a time) leave a tail of.
var shapes = []shape{{3, 2, 4}, {4, 5, 1024}, {3, 2, 13}}

func randSlice(rng *rand.Rand, n int, offset, scale float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = offset + scale*rng.NormFloat64()
	}
	return s
}

func convert[F Float](s []float64) []F {
	out := make([]F, len(s))
	for i, v := range s {
		out[i] = F(v)
	}
	return out
}

func nanSlice[F Float](n int) []F {
	s := make([]F, n)
	for i := range s {
		s[i] = F(math.NaN())
	}
	return s
}

// naiveStats returns each channel's values' mean and biased and unbiased variances.
func naiveStats(x []float64, s shape) (mean, biased, unbiased []float64) {
	for ch := range s.c {
		var vals []float64
		for b := range s.b {
			for f := range s.f {
				vals = append(vals, x[(b*s.c+ch)*s.f+f])
			}
		}
		var mu float64
		for _, v := range vals {
			mu += v
		}
		mu /= float64(len(vals))
		var ss float64
		for _, v := range vals {
			ss += (v - mu) * (v - mu)
		}
		mean = append(mean, mu)
		biased = append(biased, ss/float64(len(vals)))
		unbiased = append(unbiased, ss/float64(len(vals)-1))
	}
	return mean, biased, unbiased
}

// naiveNorm applies gamma (x - mean)/sqrt(v + eps) + beta per channel.
func naiveNorm(x, gamma, beta, mean, v []float64, s shape, eps float64) []float64 {
	y := make([]float64, len(x))
	for b := range s.b {
		for ch := range s.c {
			for f := range s.f {
				i := (b*s.c+ch)*s.f + f
				y[i] = gamma[ch]*(x[i]-mean[ch])/math.Sqrt(v[ch]+eps) + beta[ch]
			}
		}
	}
	return y
}

func naiveLoss(x, gamma, beta, w []float64, s shape) float64 {
	mean, biased, _ := naiveStats(x, s)
	var l float64
	for i, v := range naiveNorm(x, gamma, beta, mean, biased, s, DefaultEps) {
		l += v * w[i]
	}
	return l
}

func maxRelDiff[F Float](got []F, want []float64) float64 {
	var m float64
	for i := range want {
		d := math.Abs(float64(got[i])-want[i]) / (1 + math.Abs(want[i]))
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = max(m, d)
	}
	return m
}

type data struct{ x, gamma, beta []float64 }

func randData(rng *rand.Rand, s shape, offset float64) data {
	return data{
		x:     randSlice(rng, s.b*s.c*s.f, offset, 2),
		gamma: randSlice(rng, s.c, 1, 0.3),
		beta:  randSlice(rng, s.c, 0, 0.5),
	}
}

// forward runs Forward on NaN-filled outputs.
func forward[F Float](d data, s shape) (y, mean, invStd []F) {
	y, mean, invStd = nanSlice[F](len(d.x)), nanSlice[F](s.c), nanSlice[F](s.c)
	Forward(y, convert[F](d.x), convert[F](d.gamma), convert[F](d.beta), s.b, s.c, s.f, DefaultEps, mean, invStd)
	return y, mean, invStd
}

func TestForwardMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range shapes {
		// A large offset checks the variance does not cancel.
		for _, offset := range []float64{0, 1000} {
			d := randData(rng, s, offset)
			mean, biased, _ := naiveStats(d.x, s)
			want := naiveNorm(d.x, d.gamma, d.beta, mean, biased, s, DefaultEps)
			wantInv := make([]float64, s.c)
			for i, v := range biased {
				wantInv[i] = 1 / math.Sqrt(v+DefaultEps)
			}
			y64, m64, is64 := forward[float64](d, s)
			y32, m32, is32 := forward[float32](d, s)
			for _, c := range []struct {
				name string
				e    float64
				tol  float64
			}{
				// Summation order differs from naive: rounding of the mean grows with the offset.
				{"y f64", maxRelDiff(y64, want), 1e-12 * (1 + offset)},
				{"mean f64", maxRelDiff(m64, mean), 1e-12},
				{"invStd f64", maxRelDiff(is64, wantInv), 1e-12 * (1 + offset)},
				// float32 inputs are rounded: relative 6e-8 of offset 1000 is 6e-5 of a std of 2.
				{"y f32", maxRelDiff(y32, want), 2e-5 * (1 + offset/100)},
				{"mean f32", maxRelDiff(m32, mean), 1e-6},
				{"invStd f32", maxRelDiff(is32, wantInv), 1e-5 * (1 + offset/100)},
			} {
				if !(c.e <= c.tol) {
					t.Errorf("%v offset %v: %s differs from naive by %g", s, offset, c.name, c.e)
				}
			}
		}
	}
}

// TestBackwardFiniteDifferences checks dx, dgamma, dbeta element by element against central
// differences of the naive loss sum(y * w) in float64, and at the parallel size along one
// random direction per input.
func TestBackwardFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, s := range shapes {
		d := randData(rng, s, 0.5)
		w := randSlice(rng, len(d.x), 0, 1)
		_, mean, invStd := forward[float64](d, s)
		dx, dgamma, dbeta := nanSlice[float64](len(d.x)), nanSlice[float64](s.c), nanSlice[float64](s.c)
		Backward(dx, dgamma, dbeta, w, d.x, d.gamma, mean, invStd, s.b, s.c, s.f)
		elementwise := s.b*s.c*s.f < 100
		for _, in := range []struct {
			name string
			val  []float64
			grad []float64
		}{{"x", d.x, dx}, {"gamma", d.gamma, dgamma}, {"beta", d.beta, dbeta}} {
			const eps = 1e-6
			if elementwise {
				for i := range in.val {
					v := in.val[i]
					in.val[i] = v + eps
					lp := naiveLoss(d.x, d.gamma, d.beta, w, s)
					in.val[i] = v - eps
					lm := naiveLoss(d.x, d.gamma, d.beta, w, s)
					in.val[i] = v
					fd := (lp - lm) / (2 * eps)
					if e := math.Abs(in.grad[i] - fd); !(e <= 1e-7*(1+math.Abs(fd))) {
						t.Errorf("%v: d%s[%d] = %.10g, finite difference %.10g", s, in.name, i, in.grad[i], fd)
					}
				}
				continue
			}
			dir := randSlice(rng, len(in.val), 0, 1)
			orig := append([]float64(nil), in.val...)
			var dot float64
			for i := range dir {
				dot += in.grad[i] * dir[i]
				in.val[i] = orig[i] + eps*dir[i]
			}
			lp := naiveLoss(d.x, d.gamma, d.beta, w, s)
			for i := range dir {
				in.val[i] = orig[i] - eps*dir[i]
			}
			lm := naiveLoss(d.x, d.gamma, d.beta, w, s)
			copy(in.val, orig)
			fd := (lp - lm) / (2 * eps)
			if e := math.Abs(dot - fd); !(e <= 1e-6*(1+math.Abs(fd))) {
				t.Errorf("%v: <d%s, v> = %.10g, finite difference %.10g", s, in.name, dot, fd)
			}
		}
	}
}

func TestBackwardFloat32MatchesFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, s := range shapes {
		d := randData(rng, s, 0.5)
		dy := randSlice(rng, len(d.x), 0, 1)
		_, m64, is64 := forward[float64](d, s)
		dx64, dg64, db64 := make([]float64, len(d.x)), make([]float64, s.c), make([]float64, s.c)
		Backward(dx64, dg64, db64, dy, d.x, d.gamma, m64, is64, s.b, s.c, s.f)
		_, m32, is32 := forward[float32](d, s)
		dx32, dg32, db32 := nanSlice[float32](len(d.x)), nanSlice[float32](s.c), nanSlice[float32](s.c)
		Backward(dx32, dg32, db32, convert[float32](dy), convert[float32](d.x), convert[float32](d.gamma), m32, is32, s.b, s.c, s.f)
		// dgamma and dbeta are sums of b*f terms of size ~1, hence the looser bound.
		if e := maxRelDiff(dx32, dx64); e > 1e-5 {
			t.Errorf("%v: float32 dx differs by %g", s, e)
		}
		if e := maxRelDiff(dg32, dg64); e > 1e-5*math.Sqrt(float64(s.b*s.f)) {
			t.Errorf("%v: float32 dgamma differs by %g", s, e)
		}
		if e := maxRelDiff(db32, db64); e > 1e-5*math.Sqrt(float64(s.b*s.f)) {
			t.Errorf("%v: float32 dbeta differs by %g", s, e)
		}
	}
}

// TestRunningAndInference checks UpdateRunning against PyTorch's formula computed from the
// data, and Inference against the naive formula with those running statistics.
func TestRunningAndInference(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, s := range shapes {
		d := randData(rng, s, 3)
		_, mean, invStd := forward[float64](d, s)
		runMean := randSlice(rng, s.c, 0, 1)
		runVar := randSlice(rng, s.c, 2, 0.5)
		wantMean, _, unbiased := naiveStats(d.x, s)
		for ch := range s.c {
			wantMean[ch] = (1-DefaultMomentum)*runMean[ch] + DefaultMomentum*wantMean[ch]
			unbiased[ch] = (1-DefaultMomentum)*runVar[ch] + DefaultMomentum*unbiased[ch]
		}
		UpdateRunning(runMean, runVar, mean, invStd, s.b*s.f, DefaultMomentum, DefaultEps)
		if e := maxRelDiff(runMean, wantMean); e > 1e-12 {
			t.Errorf("%v: running mean differs by %g", s, e)
		}
		if e := maxRelDiff(runVar, unbiased); e > 1e-10 {
			t.Errorf("%v: running variance differs by %g", s, e)
		}

		y := nanSlice[float64](len(d.x))
		Inference(y, d.x, d.gamma, d.beta, runMean, runVar, s.b, s.c, s.f, DefaultEps)
		if e := maxRelDiff(y, naiveNorm(d.x, d.gamma, d.beta, runMean, runVar, s, DefaultEps)); e > 1e-12 {
			t.Errorf("%v: Inference differs from naive by %g", s, e)
		}
	}
}

func TestUpdateRunningPanicsOnSingleValue(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("UpdateRunning accepted count = 1")
		}
	}()
	UpdateRunning([]float64{0}, []float64{1}, []float64{0}, []float64{1}, 1, DefaultMomentum, DefaultEps)
}

// TestBackwardFrozen checks that nil dgamma and dbeta (frozen) leave dx bit for bit as it is
// with them.
func TestBackwardFrozen(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, s := range shapes {
		d := randData(rng, s, 0.5)
		dy := convert[float32](randSlice(rng, len(d.x), 0, 1))
		x, gamma := convert[float32](d.x), convert[float32](d.gamma)
		_, mean, invStd := forward[float32](d, s)
		want, got := make([]float32, len(x)), nanSlice[float32](len(x))
		Backward(want, make([]float32, s.c), make([]float32, s.c), dy, x, gamma, mean, invStd, s.b, s.c, s.f)
		Backward(got, nil, nil, dy, x, gamma, mean, invStd, s.b, s.c, s.f)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%v: dx[%d] = %v without dgamma, dbeta; %v with", s, i, got[i], want[i])
			}
		}
	}
}

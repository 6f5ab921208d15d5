package fastmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// inputs covers the gates' range densely, the clamping and saturation regions, the branch
// point of tanh, random values and special values.
func inputs() []float32 {
	var xs []float32
	for x := float32(-30); x <= 30; x += 0.00731 {
		xs = append(xs, x)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20000 {
		xs = append(xs, float32(rng.NormFloat64()*3), float32(rng.NormFloat64()*1e-3))
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1e-45, 0.625, -0.625,
		math.Nextafter32(0.625, 0), -math.Nextafter32(0.625, 0), 10, -10, 87, -87, 88, -88, 89, -89,
		100, -100, 1e6, -1e6, math.MaxFloat32, -math.MaxFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)))
	return xs
}

// checkSigmoid reports the first value more than 2e-7 absolute (or 1e-6 relative, for results
// above 1e-37) from the float64 sigmoid.
func checkSigmoid(t *testing.T, what string, xs, got []float32) {
	t.Helper()
	for i, x := range xs {
		want := 1 / (1 + math.Exp(-float64(x)))
		e := math.Abs(float64(got[i]) - want)
		if !(e <= 2e-7) || (want > 1e-37 && want < 0.2 && e > 1e-6*want) {
			t.Fatalf("%s: sigmoid(%g) = %g, want %g", what, x, got[i], want)
		}
	}
}

// checkTanh reports the first value more than 2e-7 absolute (or 4e-7 relative below 0.5)
// from math.Tanh.
func checkTanh(t *testing.T, what string, xs, got []float32) {
	t.Helper()
	for i, x := range xs {
		want := math.Tanh(float64(x))
		e := math.Abs(float64(got[i]) - want)
		if !(e <= 2e-7) || (math.Abs(want) < 0.5 && e > 4e-7*math.Abs(want)) {
			t.Fatalf("%s: tanh(%g) = %g, want %g", what, x, got[i], want)
		}
	}
}

func TestExp32(t *testing.T) {
	for _, x := range inputs() {
		if x < expMin || x > expMax {
			continue
		}
		want := math.Exp(float64(x))
		if e := math.Abs(float64(Exp32(x))-want) / want; e > 3e-7 {
			t.Fatalf("Exp32(%g) relative error %g", x, e)
		}
	}
}

func TestScalars(t *testing.T) {
	xs := inputs()
	sig, th := make([]float32, len(xs)), make([]float32, len(xs))
	for i, x := range xs {
		sig[i], th[i] = Sigmoid32(x), Tanh32(x)
	}
	checkSigmoid(t, "Sigmoid32", xs, sig)
	checkTanh(t, "Tanh32", xs, th)
}

// TestSlices checks the slice kernels (the vector path where there is one) against the
// reference, in place and not, and that they agree with the scalars to 2 ulp.
func TestSlices(t *testing.T) {
	t.Logf("vector kernels: %v", sigmoidVec(make([]float32, 8), make([]float32, 8)) == 8)
	xs := inputs()
	for _, f := range []struct {
		name   string
		slice  func(dst, x []float32)
		scalar func(float32) float32
		check  func(*testing.T, string, []float32, []float32)
	}{
		{"Sigmoid", Sigmoid, Sigmoid32, checkSigmoid},
		{"Tanh", Tanh, Tanh32, checkTanh},
	} {
		got := make([]float32, len(xs))
		f.slice(got, xs)
		f.check(t, f.name, xs, got)
		for i, x := range xs {
			s := f.scalar(x)
			if d := math.Abs(float64(got[i] - s)); d > 2*ulp(s) {
				t.Fatalf("%s(%g) = %g, scalar %g", f.name, x, got[i], s)
			}
		}
		inPlace := append([]float32(nil), xs...)
		f.slice(inPlace, inPlace)
		for i := range got {
			if inPlace[i] != got[i] {
				t.Fatalf("%s in place differs at %d: %g, %g", f.name, i, inPlace[i], got[i])
			}
		}
	}
}

// ulp is the spacing of float32 values at |v| (at least the smallest normal's).
func ulp(v float32) float64 {
	a := max(float32(math.Abs(float64(v))), 0x1p-126)
	return float64(math.Nextafter32(a, float32(math.Inf(1))) - a)
}

// TestTails checks every length up to three vectors and a bit, so that both the vector body and
// the scalar tail write exactly their elements and nothing past len.
func TestTails(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for n := range 30 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 4)
		}
		for _, f := range []struct {
			name   string
			slice  func(dst, x []float32)
			scalar func(float32) float32
		}{{"Sigmoid", Sigmoid, Sigmoid32}, {"Tanh", Tanh, Tanh32}} {
			buf := make([]float32, n+1)
			buf[n] = 42
			f.slice(buf[:n], x)
			if buf[n] != 42 {
				t.Fatalf("%s: n=%d wrote past the end", f.name, n)
			}
			for i := range n {
				if s := f.scalar(x[i]); math.Abs(float64(buf[i]-s)) > 2*ulp(s) {
					t.Fatalf("%s: n=%d, [%d] = %g, scalar %g", f.name, n, i, buf[i], s)
				}
			}
		}
	}
}

func TestNaN(t *testing.T) {
	nan := float32(math.NaN())
	x := make([]float32, 19) // a vector's worth and a tail's worth of NaNs between numbers
	for i := range x {
		if i%3 == 1 {
			x[i] = nan
		}
	}
	for _, f := range []struct {
		name  string
		slice func(dst, x []float32)
	}{{"Sigmoid", Sigmoid}, {"Tanh", Tanh}} {
		got := make([]float32, len(x))
		f.slice(got, x)
		for i, v := range got {
			if isNaN := v != v; isNaN != (i%3 == 1) {
				t.Errorf("%s: [%d] = %g for input %g", f.name, i, v, x[i])
			}
		}
	}
	if v := Sigmoid32(nan); v == v {
		t.Errorf("Sigmoid32(NaN) = %g", v)
	}
	if v := Tanh32(nan); v == v {
		t.Errorf("Tanh32(NaN) = %g", v)
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Sigmoid accepted slices of different lengths")
		}
	}()
	Sigmoid(make([]float32, 3), make([]float32, 4))
}

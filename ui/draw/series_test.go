package draw

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveSmooth is the debiased EMA written as the weighted sum it stands for.
func naiveSmooth(y []float64, alpha float64) []float64 {
	out := make([]float64, len(y))
	for t := range y {
		var num, den float64
		for k := 0; k <= t; k++ {
			w := (1 - alpha) * math.Pow(alpha, float64(t-k))
			num += w * y[k]
			den += w
		}
		out[t] = num / den
	}
	return out
}

func TestSmooth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, 50)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	for _, alpha := range []float64{0, 0.3, 0.6, 0.99} {
		got := make([]float64, len(y))
		Smooth(got, y, alpha)
		want := naiveSmooth(y, alpha)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("alpha %g: smooth[%d] = %g, want %g", alpha, i, got[i], want[i])
			}
		}
	}
	// A constant stays constant from the first point: the debiasing at work.
	c := []float64{3, 3, 3}
	got := make([]float64, 3)
	Smooth(got, c, 0.9)
	for _, v := range got {
		if math.Abs(v-3) > 1e-12 {
			t.Errorf("smoothed constant = %v", got)
		}
	}
}

// naiveResample bins by testing every column's bounds, then interpolates the interior gaps.
func naiveResample(x, y []float64, x0, x1 float64, w int) []float64 {
	out := make([]float64, w)
	dx := (x1 - x0) / float64(w)
	for c := range w {
		lo, hi := x0+float64(c)*dx, x0+float64(c+1)*dx
		var sum float64
		n := 0
		for i := range x {
			in := x[i] >= lo && x[i] < hi || c == w-1 && x[i] == x1
			if in && x[i] >= x0 && x[i] <= x1 {
				sum += y[i]
				n++
			}
		}
		out[c] = math.NaN()
		if n > 0 {
			out[c] = sum / float64(n)
		}
	}
	first, last := -1, -1
	for c, v := range out {
		if !math.IsNaN(v) {
			if first < 0 {
				first = c
			}
			last = c
		}
	}
	for c := first + 1; c < last; c++ {
		if !math.IsNaN(out[c]) {
			continue
		}
		l, r := c-1, c+1
		for math.IsNaN(out[l]) {
			l--
		}
		for math.IsNaN(out[r]) {
			r++
		}
		out[c] = out[l] + (out[r]-out[l])*float64(c-l)/float64(r-l)
	}
	return out
}

func TestResample(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := rng.IntN(40)
		x := make([]float64, n)
		y := make([]float64, n)
		step := 0.0
		for i := range x {
			// Repeated steps and gaps; the fraction keeps points off the exact column
			// boundaries, where the two ways of binning may round differently.
			step += float64(rng.IntN(30))
			x[i], y[i] = step+0.001+0.1*rng.Float64(), rng.Float64()
		}
		slices.Sort(x)
		w := 1 + rng.IntN(30)
		x0, x1 := 0.0, math.Max(step+0.2, 1)
		if trial%3 == 0 {
			x0 = step / 3 // points left of the window are dropped
		}
		got := make([]float64, w)
		Resample(got, x, y, x0, x1, w)
		want := naiveResample(x, y, x0, x1, w)
		for c := range got {
			if math.IsNaN(got[c]) != math.IsNaN(want[c]) || !math.IsNaN(got[c]) && math.Abs(got[c]-want[c]) > 1e-9 {
				t.Fatalf("trial %d: column %d = %g, want %g (x %v, w %d)", trial, c, got[c], want[c], x, w)
			}
		}
	}
}

func TestLog10All(t *testing.T) {
	v := []float64{100, 0, math.NaN(), 1e-3, -5}
	Log10All(v)
	if v[0] != 2 || !math.IsNaN(v[1]) || !math.IsNaN(v[2]) || math.Abs(v[3]+3) > 1e-12 || !math.IsNaN(v[4]) {
		t.Errorf("Log10All = %v", v)
	}
}

func TestFormat(t *testing.T) {
	nums := map[float64]string{0: "0", 0.05: "0.05", 0.123456: "0.123", 2.6543e-5: "2.65e-5", 1234: "1234", 99999: "99999", 0.00123: "0.00123", 2e6: "2e6", -3e-7: "-3e-7", math.NaN(): "—"}
	for v, want := range nums {
		if got := FmtNum(v); got != want {
			t.Errorf("FmtNum(%g) = %q, want %q", v, got, want)
		}
		if len([]rune(FmtNum(v))) > LabelWidth {
			t.Errorf("FmtNum(%g) is wider than a label", v)
		}
	}
	ints := map[int]string{0: "0", 999: "999", 1000: "1,000", 4812: "4,812", 1234567: "1,234,567", -5000: "-5,000"}
	for v, want := range ints {
		if got := FmtInt(v); got != want {
			t.Errorf("FmtInt(%d) = %q, want %q", v, got, want)
		}
	}
}

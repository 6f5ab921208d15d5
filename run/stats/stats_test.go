package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestMeanMedianStd(t *testing.T) {
	x := []float64{4, 1, 3, 2, 10}
	orig := slices.Clone(x)
	if got := Mean(x); got != 4 {
		t.Errorf("Mean = %v, want 4", got)
	}
	if got := Median(x); got != 3 {
		t.Errorf("Median = %v, want 3", got)
	}
	if !slices.Equal(x, orig) {
		t.Errorf("Median reordered x: %v", x)
	}
	if got := Median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("even Median = %v, want 2.5", got)
	}
	// Squared deviations 0+9+1+4+36 = 50, over n-1 = 4: variance 12.5.
	if got := StdDev(x); !near(got, math.Sqrt(12.5), 1e-15) {
		t.Errorf("StdDev = %v, want sqrt(12.5)", got)
	}
	if StdDev([]float64{3}) != 0 || StdDev(nil) != 0 {
		t.Errorf("StdDev of fewer than 2 values is not 0")
	}
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Median(nil)) {
		t.Errorf("Mean or Median of nothing is not NaN")
	}
}

func TestCI(t *testing.T) {
	// n = 5: 4 degrees of freedom, t_{0.975,4} = 2.776445, t_{0.84,4} = 1.134397 (scipy.stats.t.ppf).
	x := []float64{4, 1, 3, 2, 10}
	se := math.Sqrt(12.5) / math.Sqrt(5)
	for _, tc := range []struct{ level, t float64 }{{0.95, 2.776445105}, {0.68, 1.134397}} {
		lo, hi := CI(x, tc.level)
		if !near(lo, 4-tc.t*se, 1e-5) || !near(hi, 4+tc.t*se, 1e-5) {
			t.Errorf("CI(%v) = [%v, %v], want 4 ± %v", tc.level, lo, hi, tc.t*se)
		}
	}
	// Large n: the t quantile approaches the normal one, 1.959964.
	rng := rand.New(rand.NewPCG(1, 2))
	big := make([]float64, 100000)
	for i := range big {
		big[i] = rng.NormFloat64()
	}
	lo, hi := CI(big, 0.95)
	want := 1.959964 * StdDev(big) / math.Sqrt(float64(len(big)))
	if !near((hi-lo)/2, want, want*1e-4) {
		t.Errorf("large-n half width %v, want %v", (hi-lo)/2, want)
	}
	if lo, hi := CI([]float64{7}, 0.95); lo != 7 || hi != 7 {
		t.Errorf("CI of one value = [%v, %v]", lo, hi)
	}
}

func TestCorrelation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 3, 10, 100} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
			y[i] = 0.5*x[i] + rng.NormFloat64()
		}
		// Naive two-pass formula.
		mx, my := Mean(x), Mean(y)
		var sxy, sxx, syy float64
		for i := range x {
			sxy += (x[i] - mx) * (y[i] - my)
			sxx += (x[i] - mx) * (x[i] - mx)
			syy += (y[i] - my) * (y[i] - my)
		}
		want := sxy / math.Sqrt(sxx*syy)
		if got := Correlation(x, y); !near(got, want, 1e-12) {
			t.Errorf("n=%d: Correlation = %v, want %v", n, got, want)
		}
	}
	if got := Correlation([]float64{1, 2, 3}, []float64{2, 4, 6}); !near(got, 1, 1e-15) {
		t.Errorf("perfect correlation = %v", got)
	}
	for _, tc := range [][2][]float64{
		{{0.1, 0.1, 0.1}, {1, 2, 3}},
		{{1, 2, 3}, {5, 5, 5}},
		{{1}, {2}},
	} {
		if got := Correlation(tc[0], tc[1]); !math.IsNaN(got) {
			t.Errorf("Correlation(%v, %v) = %v, want NaN", tc[0], tc[1], got)
		}
	}
}

func TestSummarize(t *testing.T) {
	x := []float64{4, 1, 3, 2, 10}
	s := Summarize(x)
	lo68, hi68 := CI(x, 0.68)
	lo95, hi95 := CI(x, 0.95)
	want := Summary{N: 5, Mean: 4, Median: 3, Std: math.Sqrt(12.5), CI68Lo: lo68, CI68Hi: hi68,
		CI95Lo: lo95, CI95Hi: hi95, Min: 1, Max: 10}
	if s != want {
		t.Errorf("Summarize = %+v, want %+v", s, want)
	}
	if !(s.CI95Lo < s.CI68Lo && s.CI68Lo < s.Mean && s.Mean < s.CI68Hi && s.CI68Hi < s.CI95Hi) {
		t.Errorf("intervals not nested: %+v", s)
	}
	one := Summarize([]float64{2})
	if one.N != 1 || one.Std != 0 || one.CI95Lo != 2 || one.CI95Hi != 2 || one.Min != 2 || one.Max != 2 {
		t.Errorf("Summarize of one value = %+v", one)
	}
	if e := Summarize(nil); e.N != 0 || !math.IsNaN(e.Mean) || !math.IsNaN(e.Max) {
		t.Errorf("Summarize(nil) = %+v", e)
	}
}

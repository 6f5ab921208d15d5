package stats

import (
	"math"
	"testing"
)

// The reference values are scipy.stats.f.sf (scipy 1.10).
func TestFUpperTail(t *testing.T) {
	for _, c := range []struct{ f, d1, d2, want float64 }{
		{4.402, 9, 9, 0.018922653721578662}, // the paper's exploration test: p = 0.019
		{2.5, 4, 12, 0.0981618111731046},
		{1.0, 3, 7, 1 - 0.5529203865315163},
	} {
		if got := FUpperTail(c.f, c.d1, c.d2); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("FUpperTail(%g, %g, %g) = %.12g, want %.12g", c.f, c.d1, c.d2, got, c.want)
		}
	}
}

func TestVarianceRatio(t *testing.T) {
	x := []float64{1.0, 2.5, 3.1, 0.7, 2.2}
	y := []float64{1.1, 1.2, 1.0, 1.3, 1.15, 1.05}
	// numpy.var(ddof=1) ratio and scipy.stats.f.sf(F, 4, 5).
	got := VarianceRatio(x, y)
	if got.N1 != 5 || got.N2 != 6 || math.Abs(got.F-88.71428571428574) > 1e-9 || math.Abs(got.P-7.885623142896953e-05) > 1e-12 {
		t.Errorf("VarianceRatio = %+v, want F 88.714, N1 5, N2 6, p 7.8856e-05", got)
	}
	if r := VarianceRatio(x, []float64{2, 2, 2}); !math.IsNaN(r.F) || !math.IsNaN(r.P) {
		t.Errorf("constant y: %+v, want NaN F and p", r)
	}
	if r := VarianceRatio(x[:1], y); !math.IsNaN(r.F) || r.N1 != 1 {
		t.Errorf("one value: %+v, want NaN", r)
	}
}

package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// FTest is the variance-ratio test of two samples: F = s1² / s2² (sample variances), with
// N1 - 1 and N2 - 1 degrees of freedom, and P the one-sided p-value P(F' >= F) for the
// hypothesis that the first sample's variance exceeds the second's. The paper reports its
// exploration study this way (F = 4.402, N1 = N2 = 10, p = 0.019: the upper tail of F(9, 9)).
type FTest struct {
	F      float64
	N1, N2 int
	P      float64
}

// VarianceRatio tests whether x's variance exceeds y's. F and P are NaN when either sample has
// fewer than two values or y has no spread.
func VarianceRatio(x, y []float64) FTest {
	t := FTest{N1: len(x), N2: len(y), F: math.NaN(), P: math.NaN()}
	if len(x) < 2 || len(y) < 2 {
		return t
	}
	vy := StdDev(y) * StdDev(y)
	if vy == 0 {
		return t
	}
	vx := StdDev(x) * StdDev(x)
	t.F = vx / vy
	t.P = FUpperTail(t.F, float64(len(x)-1), float64(len(y)-1))
	return t
}

// FUpperTail is P(X >= f) for X ~ F(d1, d2), the survival function of the F distribution
// (1 - CDF, computed by gonum through the regularized incomplete beta function).
func FUpperTail(f, d1, d2 float64) float64 {
	return distuv.F{D1: d1, D2: d2}.Survival(f)
}

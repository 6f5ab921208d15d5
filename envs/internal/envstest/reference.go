package envstest

import (
	"math"
	"testing"
)

// MeanSE returns the sample mean of xs and its standard error.
func MeanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// ReferenceTolerance is how far a mean of xs may fall from a reference number: 3 standard
// errors of the difference, taking the reference's own error as that of a 1,000-instance mean
// of the same spread, plus half of the reference's last printed digit (unit).
func ReferenceTolerance(xs []float64, unit float64) (mean, tol float64) {
	mean, se := MeanSE(xs)
	return mean, 3*se*math.Sqrt(1+float64(len(xs))/1000) + unit/2
}

// CheckReference fails t unless the mean of xs is within ReferenceTolerance of ref.
func CheckReference(t *testing.T, name string, xs []float64, ref, unit float64) {
	t.Helper()
	mean, tol := ReferenceTolerance(xs, unit)
	t.Logf("%s: mean %.4f, reference %v, tolerance %.4f", name, mean, ref, tol)
	if math.Abs(mean-ref) > tol {
		t.Errorf("%s: mean %.4f, reference %v (tolerance %.4f)", name, mean, ref, tol)
	}
}

// Package stats provides the summary statistics used across the program, as thin wrappers
// over gonum's stat and stat/distuv with the conventions the program needs for small samples.
package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Mean returns the arithmetic mean of x, NaN if x is empty.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return stat.Mean(x, nil)
}

// Median returns the median of x (the mean of the two middle values when len(x) is even),
// NaN if x is empty. It does not reorder x; it sorts a copy.
func Median(x []float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// StdDev returns the sample standard deviation of x (normalised by n-1), 0 for n < 2.
func StdDev(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	return stat.StdDev(x, nil)
}

// CI returns the two-sided confidence interval for the mean of x at the given level
// (e.g. 0.68, 0.95): mean ± t * s / sqrt(n), with t the (1+level)/2 quantile of the Student t
// distribution with n-1 degrees of freedom. It returns (mean, mean) for n < 2, where no spread
// can be estimated.
func CI(x []float64, level float64) (lo, hi float64) {
	n := len(x)
	m := Mean(x)
	if n < 2 {
		return m, m
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile((1 + level) / 2)
	half := t * stat.StdDev(x, nil) / math.Sqrt(float64(n))
	return m - half, m + half
}

// Correlation returns Pearson's correlation of x and y (equal lengths). It returns NaN if
// either is constant or n < 2, where the correlation is undefined; the check is explicit
// because rounding in the mean would otherwise give an arbitrary value for constant data.
func Correlation(x, y []float64) float64 {
	if len(x) != len(y) {
		panic("stats: Correlation lengths differ")
	}
	if len(x) < 2 || constant(x) || constant(y) {
		return math.NaN()
	}
	return stat.Correlation(x, y, nil)
}

func constant(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// Summary is the usual description of a sample: its size, mean, median, sample standard
// deviation, the 68% and 95% Student t confidence intervals for the mean, and its range.
type Summary struct {
	N                 int
	Mean, Median, Std float64
	CI68Lo, CI68Hi    float64
	CI95Lo, CI95Hi    float64
	Min, Max          float64
}

// Summarize describes x. For an empty sample N is 0 and every other field is NaN.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		nan := math.NaN()
		return Summary{Mean: nan, Median: nan, Std: nan, CI68Lo: nan, CI68Hi: nan,
			CI95Lo: nan, CI95Hi: nan, Min: nan, Max: nan}
	}
	s := Summary{N: len(x), Mean: Mean(x), Median: Median(x), Std: StdDev(x),
		Min: floats.Min(x), Max: floats.Max(x)}
	s.CI68Lo, s.CI68Hi = CI(x, 0.68)
	s.CI95Lo, s.CI95Hi = CI(x, 0.95)
	return s
}

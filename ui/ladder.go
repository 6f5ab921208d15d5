package ui

import (
	"errors"
	"math"
)

// ladderStep moves v one rung along the 1-2-5 ladder (…, 0.01, 0.02, 0.05, 0.1, …), up or down,
// the natural steps for a temperature or a learning rate. It is NaN unless v is finite and > 0.
func ladderStep(v float64, up bool) float64 {
	const eps = 1e-9
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	e := math.Floor(math.Log10(v))
	best := math.NaN()
	for k := e - 1; k <= e+1; k++ {
		for _, m := range []float64{1, 2, 5} {
			r := m * math.Pow(10, k)
			// Round away the float noise of the power so that rungs print exactly.
			r = roundSig(r)
			switch {
			case up && r > v*(1+eps) && (math.IsNaN(best) || r < best):
				best = r
			case !up && r < v*(1-eps) && (math.IsNaN(best) || r > best):
				best = r
			}
		}
	}
	return best
}

// roundSig rounds v to 12 significant digits.
func roundSig(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, 11-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// unitLeast is the least positive rung a fraction steps to: below it, down goes to 0.
const unitLeast = 0.001

// unitStep moves a fraction in [0, 1] one rung along the 1-2-5 ladder, so that the step scales
// with the value (0.01 goes to 0.005, 0.5 to 0.2): up from 0 to unitLeast, down from unitLeast
// to 0, never past 0 or 1, which are refused.
func unitStep(v float64, up bool) (float64, error) {
	switch {
	case up && v >= 1:
		return 0, errors.New("already the most, 1")
	case !up && v <= 0:
		return 0, errors.New("already the least, 0")
	case up && v < unitLeast:
		return unitLeast, nil
	case !up && v <= unitLeast:
		return 0, nil
	case up:
		return math.Min(ladderStep(v, true), 1), nil
	}
	return ladderStep(v, false), nil
}

package learn

import (
	"fmt"
	"math"
)

// CheckFinite reports the first non-finite value of x, naming what it is and, with per > 0,
// which of the len(x)/per items holds it.
func CheckFinite(x []float32, what string, per int) error {
	for i, v := range x {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("non-finite %s (%v) in instance %d", what, f, i/per)
		}
	}
	return nil
}

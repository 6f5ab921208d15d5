package learn

import (
	"fmt"
	"math"
	"sync/atomic"

	"spg-tui/linalg/parallel"
)

// CheckFinite reports the first non-finite value of x, naming what it is and, with per > 0,
// which of the len(x)/per items holds it.
func CheckFinite(x []float32, what string, per int) error {
	if i := firstNonFinite(x); i >= 0 {
		return fmt.Errorf("non-finite %s (%v) in instance %d", what, float64(x[i]), i/per)
	}
	return nil
}

// scanBlock is the fewest elements firstNonFinite scans in one chunk of its parallel loop.
const scanBlock = 1 << 14

// firstNonFinite returns the index of x's first NaN or infinity, or -1 if there is none. The
// scan is split over the cores (a batch's M at N = 50 is 320K values, scanned once by the
// learner and once by the trainer); each chunk stops at its first find and the earliest wins,
// so the answer is the serial scan's.
func firstNonFinite(x []float32) int {
	var first atomic.Int64
	first.Store(int64(len(x)))
	parallel.For((len(x)+scanBlock-1)/scanBlock, func(_, lo, hi int) {
		for i := lo * scanBlock; i < min(hi*scanBlock, len(x)); i++ {
			if f := float64(x[i]); math.IsNaN(f) || math.IsInf(f, 0) {
				for old := first.Load(); int64(i) < old && !first.CompareAndSwap(old, int64(i)); old = first.Load() {
				}
				return
			}
		}
	})
	if i := first.Load(); i < int64(len(x)) {
		return int(i)
	}
	return -1
}

package parallel

import (
	"runtime"
	"testing"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 8} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 5, 7, 128, 1000} {
			hits := make([]int32, n)
			workersSeen := make([]bool, Workers(n))
			For(n, func(worker, lo, hi int) {
				workersSeen[worker] = true
				for i := lo; i < hi; i++ {
					hits[i]++
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("procs=%d n=%d: index %d visited %d times", procs, n, i, h)
				}
			}
			for w, seen := range workersSeen {
				if n > 0 && !seen {
					t.Fatalf("procs=%d n=%d: worker %d never ran", procs, n, w)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

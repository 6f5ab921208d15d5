// Package kern holds what the kernels of agent/ops' subpackages share: scratch buffers that grow
// once, and the splitting of a batch's items over the cores.
package kern

import "spg-tui/linalg/parallel"

// Grow returns s with length n, reallocated only when its capacity is too small (graphs are
// static, so only on the first run).
func Grow[T float32 | float64](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// minSplitBatchFlops is the work of a batched pass above which its items are split over
// goroutines: about 25 µs of one core, enough to pay for handing half to a pool helper (the
// helpers poll rather than park, see parallel.For).
const minSplitBatchFlops = 1 << 20

// BatchBlocks runs fn over the items [0, b), each costing flops operations, split over the
// cores when the pass is large enough to pay for it; each item's work is the same whichever
// goroutine runs it.
func BatchBlocks(b, flops int, fn func(lo, hi int)) {
	if b*flops < minSplitBatchFlops {
		fn(0, b)
		return
	}
	parallel.For(b, func(_, lo, hi int) { fn(lo, hi) })
}

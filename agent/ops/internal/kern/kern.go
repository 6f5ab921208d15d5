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

// ElemCost is the work, in BatchBlocks' flops, of one element of a memory-bound pass, one that
// reads or writes each element once with little arithmetic: on one core, pairs.Tour wrote 77K
// features of 128 tours in 160 µs and Inner's forward and backward passes over 128 (20, 20)
// pairs took 190 µs, about 2 ns an element, the time of some 80 flops of the GEMMs.
const ElemCost = 64

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

package sinkhorn

import (
	"fmt"
	"math"
)

// LogM writes log M = S^L(X/tau) for one n x n matrix x into l (both row-major, len n*n), in
// float64 and in the log domain throughout: the same iters row-then-column normalisations as
// Forward, whose float32 M underflows to 0 for most entries at a small tau, so that its log
// no longer orders them. Decodes that rank single entries of M (envs/tsp.GreedyEdges) need that
// order. x must be finite. LogM panics on mismatched lengths, tau <= 0 or iters < 1.
func LogM[T Float](l []float64, x []T, n int, tau float64, iters int) {
	checkArgs("LogM", 1, n, tau, iters)
	if len(x) != n*n || len(l) != n*n {
		panic(fmt.Sprintf("sinkhorn: LogM: len(x) = %d, len(l) = %d, want n*n = %d", len(x), len(l), n*n))
	}
	for k, v := range x {
		l[k] = float64(v) / tau
	}
	for range iters {
		for i := range n { // rows
			subtractLogSumExp(l[i*n:(i+1)*n], 1)
		}
		for j := range n { // columns
			subtractLogSumExp(l[j:], n)
		}
	}
}

// subtractLogSumExp subtracts from the n entries v[0], v[stride], ... (n = the line's length,
// len(v) / stride rounded up) their log-sum-exp.
func subtractLogSumExp(v []float64, stride int) {
	top := math.Inf(-1)
	for k := 0; k < len(v); k += stride {
		top = max(top, v[k])
	}
	var s float64
	for k := 0; k < len(v); k += stride {
		s += math.Exp(v[k] - top)
	}
	lse := top + math.Log(s)
	for k := 0; k < len(v); k += stride {
		v[k] -= lse
	}
}

package sinkhorn

import (
	"fmt"

	"spg-tui/linalg/parallel"
)

// Float is the element type of the kernels.
type Float interface{ ~float32 | ~float64 }

// SavedLen returns the length of the buffer Forward needs to keep for Backward: 2*iters*b*n*n.
func SavedLen(b, n, iters int) int { return 2 * iters * b * n * n }

// Forward writes M = exp(S^L(X/tau)) for b matrices of n x n into m (len b*n*n), where x (len
// b*n*n) holds the matrices row-major and contiguous, tau > 0 is the temperature and iters = L >= 1
// the number of row-then-column normalisations. After the last column step every column of each M
// sums to 1 (up to rounding). No offset such as +1e-6 is added.
//
// If saved is non-nil it must have length SavedLen(b, n, iters); Forward then keeps there, for
// Backward, every half-step's softmax exp(y) of the log-iterate y, some of them as scale
// factors (the layout is private to this package). With saved nil only M is computed, in place
// in m. Either way the only scratch is O(n) per worker, taken from a sync.Pool, so steady-state
// calls allocate nothing of their own (parallel.For itself allocates a few small objects).
//
// m must not overlap x or saved. x must be finite. Forward panics on mismatched lengths, tau <= 0
// or iters < 1.
func Forward[T Float](m, x []T, b, n int, tau T, iters int, saved []T) {
	checkArgs("Forward", b, n, tau, iters)
	nn := n * n
	if len(x) != b*nn {
		panic(fmt.Sprintf("sinkhorn: Forward: len(x) = %d, want b*n*n = %d", len(x), b*nn))
	}
	if len(m) != b*nn {
		panic(fmt.Sprintf("sinkhorn: Forward: len(m) = %d, want b*n*n = %d", len(m), b*nn))
	}
	if saved != nil && len(saved) != SavedLen(b, n, iters) {
		panic(fmt.Sprintf("sinkhorn: Forward: len(saved) = %d, want SavedLen = %d", len(saved), SavedLen(b, n, iters)))
	}
	invTau := 1 / float64(tau)
	budget := growthBudget[T]()
	per := 2 * iters * nn
	parallel.For(b, func(_, lo, hi int) {
		w := getScratch(9 * n)
		for k := lo; k < hi; k++ {
			var sv []T
			if saved != nil {
				sv = saved[k*per : (k+1)*per]
			}
			forwardOne(m[k*nn:(k+1)*nn], x[k*nn:(k+1)*nn], sv, n, invTau, iters, budget, *w)
		}
		putScratch(w)
	})
}

// Backward writes dX = dLoss/dX (len b*n*n) into dx given dM = dLoss/dM (len b*n*n), using
// saved as filled by a Forward call with the same b, n, tau and iters. It is the exact
// vector-Jacobian product through all 2*iters half-steps and needs no exponentials. The only
// scratch is O(n) per worker from a sync.Pool.
//
// dx must not overlap dm or saved. Backward panics on mismatched lengths, tau <= 0 or iters < 1.
func Backward[T Float](dx, dm, saved []T, b, n int, tau T, iters int) {
	checkArgs("Backward", b, n, tau, iters)
	nn := n * n
	if len(dx) != b*nn {
		panic(fmt.Sprintf("sinkhorn: Backward: len(dx) = %d, want b*n*n = %d", len(dx), b*nn))
	}
	if len(dm) != b*nn {
		panic(fmt.Sprintf("sinkhorn: Backward: len(dm) = %d, want b*n*n = %d", len(dm), b*nn))
	}
	if len(saved) != SavedLen(b, n, iters) {
		panic(fmt.Sprintf("sinkhorn: Backward: len(saved) = %d, want SavedLen = %d", len(saved), SavedLen(b, n, iters)))
	}
	invTau := 1 / float64(tau)
	per := 2 * iters * nn
	parallel.For(b, func(_, lo, hi int) {
		w := getScratch(3 * n)
		for k := lo; k < hi; k++ {
			backwardOne(dx[k*nn:(k+1)*nn], dm[k*nn:(k+1)*nn], saved[k*per:(k+1)*per], n, invTau, iters, *w)
		}
		putScratch(w)
	})
}

// checkArgs panics on the argument errors Forward and Backward share.
func checkArgs[T Float](op string, b, n int, tau T, iters int) {
	if b < 0 || n < 0 {
		panic(fmt.Sprintf("sinkhorn: %s: negative dimension b = %d, n = %d", op, b, n))
	}
	if !(tau > 0) {
		panic(fmt.Sprintf("sinkhorn: %s: tau = %v, want > 0", op, tau))
	}
	if iters < 1 {
		panic(fmt.Sprintf("sinkhorn: %s: iters = %d, want >= 1", op, iters))
	}
}

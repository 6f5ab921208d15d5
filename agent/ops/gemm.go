package ops

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
)

// gemm is backend.Gemm: c = alpha op(a) op(b) + beta c in the calling goroutine, on the BLAS
// installed in gonum's blas32 and blas64 (OpenBLAS once spg-tui/linalg/backend is built with
// the openblas tag).
func gemm[T Float](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	backend.Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// colSums sets y (length n) to the column sums of the m x n row-major matrix a; ones has
// length m and holds ones (see backend.ColSums).
func colSums[T Float](m, n int, a []T, lda int, ones, y []T) {
	backend.ColSums(m, n, a, lda, ones, y)
}

// grow returns s with length n, reallocated only when its capacity is too small (graphs are
// static, so only on the first run).
func grow[T Float](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// onesOf returns s with length n filled with ones, reallocated and filled only when the length
// changed.
func onesOf[T Float](s []T, n int) []T {
	if len(s) == n {
		return s
	}
	s = make([]T, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

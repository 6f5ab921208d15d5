package ops

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// gemm computes c = alpha op(a) op(b) + beta c on row-major matrices through gonum's installed
// blas32 or blas64 implementation (OpenBLAS once spg-tui/linalg/backend is linked in with the
// openblas tag), chosen by the element type.
func gemm[T Float](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemm(tA, tB, m, n, k, float32(alpha), a, lda,
			any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas64.Implementation().Dgemm(tA, tB, m, n, k, float64(alpha), a, lda,
			any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// colSums sets y (length n) to the column sums of the m x n row-major matrix a as a^T ones,
// one vectorised BLAS call; ones has length m and holds ones.
func colSums[T Float](m, n int, a []T, lda int, ones, y []T) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float32), 1, 0, any(y).([]float32), 1)
	case []float64:
		blas64.Implementation().Dgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float64), 1, 0, any(y).([]float64), 1)
	}
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

package gru

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// gemm computes c = alpha op(a) op(b) + beta c on row-major matrices through the installed
// blas32 or blas64 implementation, chosen by the element type.
func gemm[F Float](tA, tB blas.Transpose, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemm(tA, tB, m, n, k, float32(alpha), a, lda,
			any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas64.Implementation().Dgemm(tA, tB, m, n, k, float64(alpha), a, lda,
			any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// colSums sets y (length n) to the column sums of the m x n row-major matrix a, as a^T x
// with x a vector of m ones (a single vectorised BLAS call instead of a scalar loop).
func colSums[F Float](m, n int, a []F, lda int, ones, y []F) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float32), 1, 0, any(y).([]float32), 1)
	case []float64:
		blas64.Implementation().Dgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float64), 1, 0, any(y).([]float64), 1)
	}
}

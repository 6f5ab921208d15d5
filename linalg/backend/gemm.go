package backend

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"spg-tui/linalg/parallel"
)

// Float is the element type of the typed BLAS helpers below: float32 for training, float64 for
// gradient checks. The types are exact because BLAS dispatch needs []float32 or []float64.
type Float interface{ float32 | float64 }

// splitInGo is whether GemmParallel splits products over goroutines: only when the BLAS in use
// runs each call on one thread (set by the build's init).
var splitInGo bool

// minSplitFlops is the size (2mnk) above which GemmParallel splits a product over goroutines:
// about 20 µs of single-core work, well above the cost of starting and joining them.
const minSplitFlops = 2 << 20

// minSplitWidth is the fewest rows or columns of c a goroutine gets; narrower blocks run the
// BLAS micro-kernels below their efficient width.
const minSplitWidth = 16

// maxSplitKWidth is the widest c (rows or columns) whose product GemmParallel splits by blocks
// of k where the build allows (splitK32) rather than by rows or columns of c. Split by c, each
// core reads all of one operand over k: a layer's weight gradient x^T g over the B N^2 rows of
// a pair MLP (k = 320,000 at TSP-50) then ran no faster on 2 cores than on one, and the 64 x 64
// one on at most 4 cores (minSplitWidth). Split by k, each core reads its rows of both, and
// writes m*n floats for each block of k (256 rows) it does not add to c itself.
const maxSplitKWidth = 64

// minTile is the fewest elements of c GemmParallel counts a product's work by: a c smaller
// than a micro-kernel's tile costs about a whole tile per step of k.
const minTile = 64

// Gemm computes c = alpha op(a) op(b) + beta c for row-major matrices (c is m x n, op(a) m x k,
// op(b) k x n) with the installed blas32 or blas64, chosen by the element type, in the calling
// goroutine.
func Gemm[F Float](tA, tB blas.Transpose, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		blas32.Implementation().Sgemm(tA, tB, m, n, k, float32(alpha), a, lda,
			any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		blas64.Implementation().Dgemm(tA, tB, m, n, k, float64(alpha), a, lda,
			any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// GemmParallel is Gemm split over the cores when the BLAS in use runs single-threaded (see
// Threads) and the product is large: each goroutine computes a block of whole rows of c, or of
// whole columns when c has more columns than rows. Every element of c is the same reduction
// over k either way, so the result does not depend on the split. A c at most maxSplitKWidth
// wide whose k is long is split by blocks of k instead, where the build's kernels give the one
// call's bits that way (the default build; splitK32).
func GemmParallel[F Float](tA, tB blas.Transpose, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) {
	long := max(m, n)
	if splitInGo && long <= maxSplitKWidth && 2*max(m*n, minTile)*k >= minSplitFlops {
		// c small, k long: a dot product such as a learned scalar's gradient, or a narrow
		// layer's weight gradient over every row of the batch
		if a, ok := any(a).([]float32); ok && splitK32(tA, tB, m, n, k, float32(alpha), a, lda,
			any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc) {
			return
		}
	}
	if !splitInGo || 2*m*n*k < minSplitFlops || long < 2*minSplitWidth {
		Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	workers := min(parallel.Workers(long), long/minSplitWidth)
	parallel.For(workers, func(w, _, _ int) {
		lo, hi := w*long/workers, (w+1)*long/workers
		if m >= n { // rows lo..hi of c: rows of op(a)
			ao := lo * lda
			if tA == blas.Trans {
				ao = lo
			}
			Gemm(tA, tB, hi-lo, n, k, alpha, a[ao:], lda, b, ldb, beta, c[lo*ldc:], ldc)
			return
		}
		bo := lo // columns lo..hi of c: columns of op(b)
		if tB == blas.Trans {
			bo = lo * ldb
		}
		Gemm(tA, tB, m, hi-lo, k, alpha, a, lda, b[bo:], ldb, beta, c[lo:], ldc)
	})
}

// splitK32 computes a float32 product split over the cores by blocks of k, with the bits of
// one Gemm call, where the build's BLAS gives a way; false leaves it to Gemm.
var splitK32 = func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) bool {
	return false
}

// colSums32 computes float32 column sums with the bits of Sgemv's a^T ones where the build has
// a faster way (the pure-Go build's gemm.ColSums); false leaves them to Sgemv.
var colSums32 = func(m int, a []float32, lda int, y []float32) bool { return false }

// ColSums sets y (length n) to the column sums of the m x n row-major matrix a as a^T ones, a
// single vectorised BLAS call; ones has length m and holds ones.
func ColSums[F Float](m, n int, a []F, lda int, ones, y []F) {
	switch a := any(a).(type) {
	case []float32:
		if !colSums32(m, a, lda, any(y).([]float32)[:n]) {
			blas32.Implementation().Sgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float32), 1, 0, any(y).([]float32), 1)
		}
	case []float64:
		blas64.Implementation().Dgemv(blas.Trans, m, n, 1, a, lda, any(ones).([]float64), 1, 0, any(y).([]float64), 1)
	}
}

package gemm

import "gonum.org/v1/gonum/blas"

// Sgemm computes c = alpha op(a) op(b) + beta c for row-major matrices, where c is m x n,
// op(a) is m x k and op(b) is k x n, with the conventions and argument checks of gonum's
// blas.Float32 Sgemm (ConjTrans is Trans). When beta is zero c is not read, so NaNs in it do
// not propagate; when alpha or k is zero a and b are not read.
func Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm(active, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemm is Sgemm with kernel kn.
func sgemm(kn *microKernel, tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkArgs(tA, tB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scale(m, n, beta, c, ldc)
		return
	}
	if kn.row != nil && n == 1 && ldc == 1 {
		done := 0
		if kn.column != nil && tA == blas.NoTrans {
			bs := ldb
			if tB != blas.NoTrans {
				bs = 1
			}
			done = kn.column(m, k, alpha, a, lda, b, bs, beta, c)
		}
		if done < m {
			kn.row.gemm(tB == blas.NoTrans, tA == blas.NoTrans, 1, m-done, k, alpha, b, ldb, a[done*lda:], lda, beta, c[done:], m-done)
		}
		return
	}
	if byRows(kn, tB != blas.NoTrans, m) {
		kn.row.gemm(tA != blas.NoTrans, false, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if swapsNarrow(kn, tA != blas.NoTrans, tB != blas.NoTrans, m, n) {
		gemmSwapped(kn, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	kn.forWidth(n).gemm(tA != blas.NoTrans, tB != blas.NoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// KernelName names the micro-kernel Sgemm uses on this CPU and build: "avx512", "avx2" or "go"
// (Sgemm switches to the 12 x 16 "avx512-n16" for products with at most 16 columns, and to the
// one-row "avx512-row" or "avx2-row" for products with one column).
func KernelName() string { return active.name }

// scale sets c = beta c, or to zero without reading it when beta is zero.
func scale(m, n int, beta float32, c []float32, ldc int) {
	for i := range m {
		row := c[i*ldc:][:n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// checkArgs panics, as gonum's Sgemm does, when the arguments do not describe valid matrices.
func checkArgs(tA, tB blas.Transpose, m, n, k, la, lda, lb, ldb, lc, ldc int) {
	valid := func(t blas.Transpose) bool {
		return t == blas.NoTrans || t == blas.Trans || t == blas.ConjTrans
	}
	switch {
	case !valid(tA):
		panic("gemm: bad transpose of a")
	case !valid(tB):
		panic("gemm: bad transpose of b")
	case m < 0:
		panic("gemm: m < 0")
	case n < 0:
		panic("gemm: n < 0")
	case k < 0:
		panic("gemm: k < 0")
	}
	rowsA, colsA := m, k
	if tA != blas.NoTrans {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if tB != blas.NoTrans {
		rowsB, colsB = n, k
	}
	switch {
	case lda < max(1, colsA):
		panic("gemm: bad lda")
	case ldb < max(1, colsB):
		panic("gemm: bad ldb")
	case ldc < max(1, n):
		panic("gemm: bad ldc")
	case rowsA > 0 && colsA > 0 && la < lda*(rowsA-1)+colsA:
		panic("gemm: short a")
	case rowsB > 0 && colsB > 0 && lb < ldb*(rowsB-1)+colsB:
		panic("gemm: short b")
	case m > 0 && n > 0 && lc < ldc*(m-1)+n:
		panic("gemm: short c")
	}
}

// OneKBlock reports whether Sgemm runs a product with inner dimension k in one block of k, so
// that with beta = 1 it sets c to float32(alpha acc) + c, adding c once to the finished product
// acc; with beta = 0 it sets c to float32(alpha acc). A caller may then add c itself after the
// product and get the same bits.
func OneKBlock(k int) bool { return k <= kcBlock }

// KBlock is the block of k that Sgemm sums alone: it sets c from the first block's product
// (alpha, beta) and then adds each later block's, float32(alpha acc) + c, in order. A caller may
// compute the later blocks' products apart (beta = 0) and add them to c in that order for the
// same bits.
const KBlock = kcBlock

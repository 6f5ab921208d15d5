package gemm

// ColSums sets y[j] (j < n = len(y)) to the sum of column j of the m x n row-major matrix a
// (row stride lda), added from row 0 down in float32 starting from +0: the bits gonum's
// Sgemv(Trans, m, n, 1, a, lda, ones, 1, 0, y, 1) gives, in one pass over a with the sums in
// registers (gonum loads and stores y once per row). It reports false, doing nothing, where it
// has no vector kernel for the active GEMM kernel and n; the caller then uses Sgemv.
func ColSums(m int, a []float32, lda int, y []float32) bool {
	n := len(y)
	if !colSumsVec(n) || m <= 0 || n == 0 {
		return false
	}
	if lda < n || len(a) < (m-1)*lda+n {
		panic("gemm: ColSums: a too short for m rows of len(y) at stride lda")
	}
	colSumsBlocks(a, m, lda, y)
	return true
}

// HasColSums reports whether ColSums has a vector kernel for n columns with the active GEMM
// kernel.
func HasColSums(n int) bool { return colSumsVec(n) }

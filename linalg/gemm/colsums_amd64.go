//go:build !noasm

package gemm

// colSumsAVX512 is ColSums for the first 1 <= n <= 64 columns of a and y.
//
//go:noescape
func colSumsAVX512(a *float32, m, lda int, y *float32, n int)

// colSumsAVX2 is ColSums for the first 1 <= n <= 32 columns of a and y, mask holding -1 for
// each of those n columns and 0 for the rest of 32.
//
//go:noescape
func colSumsAVX2(a *float32, m, lda int, y *float32, mask *int32)

// colSumsVec reports whether ColSums has a kernel for n columns with the active GEMM kernel
// (so that a run with KernelEnv's narrower kernel times the narrower machine's step): AVX-512
// for any n, AVX2 for n <= 32. Wider, AVX2 would pass over a once per 32 columns, which
// measured up to 2x slower than Sgemv's one pass by rows (51,200 x 64 and x 128).
func colSumsVec(n int) bool {
	return active == &avx512Kernel || active == &avx2Kernel && n <= 32
}

// colSumsBlocks runs ColSums's kernel over the n columns of a and y, in blocks of 64 (AVX-512)
// or 32 (AVX2).
func colSumsBlocks(a []float32, m, lda int, y []float32) {
	n := len(y)
	if active == &avx512Kernel {
		for j := 0; j < n; j += 64 {
			colSumsAVX512(&a[j], m, lda, &y[j], min(64, n-j))
		}
		return
	}
	var mask [32]int32
	for j := 0; j < n; j += 32 {
		w := min(32, n-j)
		for l := range mask {
			mask[l] = 0
			if l < w {
				mask[l] = -1
			}
		}
		colSumsAVX2(&a[j], m, lda, &y[j], &mask[0])
	}
}

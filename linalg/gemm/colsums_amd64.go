//go:build !noasm

package gemm

// colSumsAVX512 is ColSums for the first 1 <= n <= 64 columns of a and y.
//
//go:noescape
func colSumsAVX512(a *float32, m, lda int, y *float32, n int)

// colSumsVec reports whether ColSums has its kernel: with the AVX-512 GEMM kernel (not when
// KernelEnv picks a narrower one, so that such a run times the narrower machine's step).
func colSumsVec() bool { return active == &avx512Kernel }

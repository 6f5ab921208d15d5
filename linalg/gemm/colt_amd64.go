//go:build !noasm

package gemm

// kernelAVX512ColT sets c[0:16] = alpha acc + beta c[0:16], acc[i] the chain of FMAs over
// p < kc of a[i*lda+p] b[p*bs] from zero, for 16 rows of a, the last tail = kc%16 columns
// under a mask.
//
//go:noescape
func kernelAVX512ColT(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)

// kernelAVX2ColT is kernelAVX512ColT for 8 rows of a, tail = kc%8.
//
//go:noescape
func kernelAVX2ColT(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)

// colTFunc is the signature of kernelAVX512ColT and kernelAVX2ColT.
type colTFunc func(kc int, a *float32, lda int, b *float32, bs int, c *float32, alpha, beta float32, tail int)

// columnAVX512 is avx512Kernel's microKernel.column.
func columnAVX512(m, k int, alpha float32, a []float32, lda int, b []float32, bs int, beta float32, c []float32) int {
	return columnBy(16, kernelAVX512ColT, m, k, alpha, a, lda, b, bs, beta, c)
}

// columnAVX2 is avx2Kernel's microKernel.column.
func columnAVX2(m, k int, alpha float32, a []float32, lda int, b []float32, bs int, beta float32, c []float32) int {
	return columnBy(8, kernelAVX2ColT, m, k, alpha, a, lda, b, bs, beta, c)
}

// columnBy is microKernel.column by kernel, which takes rows rows of a at a time.
func columnBy(rows int, kernel colTFunc, m, k int, alpha float32, a []float32, lda int, b []float32, bs int, beta float32, c []float32) int {
	full := m - m%rows
	for i := 0; i < full; i += rows {
		for pc := 0; pc < k; pc += kcBlock {
			kc, bt := min(kcBlock, k-pc), beta
			if pc > 0 { // later blocks of k add to the first, as gemm's do
				bt = 1
			}
			if len(a) < (i+rows-1)*lda+pc+kc || len(b) <= (pc+kc-1)*bs || len(c) < i+rows {
				panic("gemm: column kernel operands out of range")
			}
			kernel(kc, &a[i*lda+pc], lda, &b[pc*bs], bs, &c[i], alpha, bt, kc%rows)
		}
	}
	return full
}

//go:build !noasm

package gemm

// kernelAVX512Row is the tile of avx512RowKernel: c (one row, 32 columns, those set in mask0
// and mask1 stored) = alpha acc + beta c, acc[j] = sum over p < kc of a[p*ps] b[p*bs + j].
//
//go:noescape
func kernelAVX512Row(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32, mask0, mask1 int)

// kernelAVX2Row is the tile of avx2RowKernel: kernelAVX512Row for 16 columns, all stored.
//
//go:noescape
func kernelAVX2Row(kc int, a *float32, ps int, b *float32, bs int, c *float32, alpha, beta float32)

// avx512RowKernel is avx512Kernel's row kernel: 1 x 32 tiles, partial tiles by masks.
var avx512RowKernel = microKernel{
	name: "avx512-row", mr: 1, nr: 32, partial: true,
	tile: func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, r0, r1, nw int) {
		checkTile(1, 32, kc, a, rs, ps, b, bs, c, ldc, r0, r1, nw)
		kernelAVX512Row(kc, &a[0], ps, &b[0], bs, &c[0], alpha, beta, 1<<min(nw, 16)-1, 1<<max(nw-16, 0)-1)
	},
	transpose16: transpose16,
}

// avx2RowKernel is avx2Kernel's row kernel: 1 x 16 tiles, whole tiles only.
var avx2RowKernel = microKernel{
	name: "avx2-row", mr: 1, nr: 16,
	tile: func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, _, _, _ int) {
		checkTile(1, 16, kc, a, rs, ps, b, bs, c, ldc, 0, 1, 16)
		kernelAVX2Row(kc, &a[0], ps, &b[0], bs, &c[0], alpha, beta)
	},
	transpose16: transpose16ByEights,
}

//go:build !noasm

package gemm

import "golang.org/x/sys/cpu"

//go:generate go run gen_kernels.go gen_colt.go

// kernelAVX512 is microKernel.tile for 12 x 32 tiles (two ZMM registers per row), writing
// the rows set in rows and the columns set in mask0 (0-15) and mask1 (16-31).
//
//go:noescape
func kernelAVX512(kc int, a *float32, rs, ps int, b *float32, bs int, c *float32, ldc int, alpha, beta float32, rows, mask0, mask1 int)

// kernelAVX512N16 is kernelAVX512 for 12 x 16 tiles (one ZMM register per row; mask1 unused).
//
//go:noescape
func kernelAVX512N16(kc int, a *float32, rs, ps int, b *float32, bs int, c *float32, ldc int, alpha, beta float32, rows, mask0, mask1 int)

// kernelAVX2 is microKernel.sweep for 6 x 16 tiles (two YMM registers per row).
//
//go:noescape
func kernelAVX2(kc int, a *float32, rs, ps int, b *float32, bs int, c *float32, ldc int, alpha, beta float32, tiles, aStep, bStep, cStep int)

// kernelAVX2N8 is kernelAVX2 for 6 x 8 tiles (one YMM register per row).
//
//go:noescape
func kernelAVX2N8(kc int, a *float32, rs, ps int, b *float32, bs int, c *float32, ldc int, alpha, beta float32, tiles, aStep, bStep, cStep int)

// copyPanel16AVX copies rows rows of 16 floats, row r from src + r*lds, to dst one after
// another.
//
//go:noescape
func copyPanel16AVX(dst, src *float32, lds, rows int)

// copyPanel16 is microKernel.copyPanel for panels of 16 columns.
func copyPanel16(dst, src []float32, lds, kc int) {
	if len(dst) < 16*kc || len(src) < (kc-1)*lds+16 {
		panic("gemm: panel copy operands out of range")
	}
	copyPanel16AVX(&dst[0], &src[0], lds, kc)
}

// transpose16AVX512 sets dst[i*lddst+j] = src[j*ldsrc+i] for i, j < 16.
//
//go:noescape
func transpose16AVX512(dst *float32, lddst int, src *float32, ldsrc int)

// transpose8AVX2 sets dst[i*lddst+j] = src[j*ldsrc+i] for i, j < 8.
//
//go:noescape
func transpose8AVX2(dst *float32, lddst int, src *float32, ldsrc int)

// avx512Kernel is the kernel of CPUs with AVX-512F: 12 x 32 tiles, partial tiles by masks.
var avx512Kernel = microKernel{
	name: "avx512", mr: 12, nr: 32, partial: true,
	tile: func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, r0, r1, nw int) {
		checkTile(12, 32, kc, a, rs, ps, b, bs, c, ldc, r0, r1, nw)
		rows := (1<<r1 - 1) &^ (1<<r0 - 1)
		mask0, mask1 := 1<<min(nw, 16)-1, 1<<max(nw-16, 0)-1
		kernelAVX512(kc, &a[0], rs, ps, &b[0], bs, &c[0], ldc, alpha, beta, rows, mask0, mask1)
	},
	narrow:      &avx512NarrowKernel,
	row:         &avx512RowKernel,
	column:      columnAVX512,
	transpose16: transpose16,
}

// avx512NarrowKernel is avx512Kernel for products with at most 16 columns.
var avx512NarrowKernel = microKernel{
	name: "avx512-n16", mr: 12, nr: 16, partial: true,
	tile: func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, r0, r1, nw int) {
		checkTile(12, 16, kc, a, rs, ps, b, bs, c, ldc, r0, r1, nw)
		rows := (1<<r1 - 1) &^ (1<<r0 - 1)
		kernelAVX512N16(kc, &a[0], rs, ps, &b[0], bs, &c[0], ldc, alpha, beta, rows, 1<<nw-1, 0)
	},
	transpose16: transpose16,
}

// transpose16 is microKernel.transpose16 on AVX-512.
func transpose16(dst []float32, lddst int, src []float32, ldsrc int) {
	if len(dst) < 15*lddst+16 || len(src) < 15*ldsrc+16 {
		panic("gemm: transpose operands out of range")
	}
	transpose16AVX512(&dst[0], lddst, &src[0], ldsrc)
}

// avx2Kernel is the kernel of CPUs with AVX2 and FMA but not AVX-512: 6 x 16 tiles.
var avx2Kernel = microKernel{
	name: "avx2", mr: 6, nr: 16,
	tile:        sweptTile(sweepAVX2),
	sweep:       sweepAVX2,
	edge:        &avx2EdgeKernel,
	row:         &avx2RowKernel,
	column:      columnAVX2,
	packsTransA: true,
	copyPanel:   copyPanel16,
	transpose16: transpose16ByEights,
}

// sweepAVX2 is avx2Kernel's microKernel.sweep.
func sweepAVX2(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, tiles, aStep, bStep, cStep int) {
	checkSweep(6, 16, kc, a, rs, ps, b, bs, c, ldc, tiles, aStep, bStep, cStep)
	kernelAVX2(kc, &a[0], rs, ps, &b[0], bs, &c[0], ldc, alpha, beta, tiles, aStep, bStep, cStep)
}

// avx2EdgeKernel is avx2Kernel for the last panel of a product when it has at most 8 columns
// (the 20 columns of an N = 20 head are 16 + 8, not 16 + 16).
var avx2EdgeKernel = microKernel{
	name: "avx2-n8", mr: 6, nr: 8,
	tile:  sweptTile(sweepAVX2N8),
	sweep: sweepAVX2N8,
}

// sweepAVX2N8 is avx2EdgeKernel's microKernel.sweep.
func sweepAVX2N8(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, tiles, aStep, bStep, cStep int) {
	checkSweep(6, 8, kc, a, rs, ps, b, bs, c, ldc, tiles, aStep, bStep, cStep)
	kernelAVX2N8(kc, &a[0], rs, ps, &b[0], bs, &c[0], ldc, alpha, beta, tiles, aStep, bStep, cStep)
}

// transpose16ByEights is microKernel.transpose16 on AVX2: four 8 x 8 register transposes.
func transpose16ByEights(dst []float32, lddst int, src []float32, ldsrc int) {
	if len(dst) < 15*lddst+16 || len(src) < 15*ldsrc+16 {
		panic("gemm: transpose operands out of range")
	}
	for i := 0; i < 16; i += 8 {
		for j := 0; j < 16; j += 8 {
			transpose8AVX2(&dst[i*lddst+j], lddst, &src[j*ldsrc+i], ldsrc)
		}
	}
}

// init picks the widest kernel the CPU and OS support (x/sys/cpu checks that the OS saves the
// AVX-512 and AVX registers).
func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		supported = append(supported, &avx2RowKernel, &avx2Kernel)
		active = &avx2Kernel
	}
	if cpu.X86.HasAVX512F {
		supported = append(supported, &avx512NarrowKernel, &avx512RowKernel, &avx512Kernel)
		active = &avx512Kernel
	}
	selectFromEnv()
}

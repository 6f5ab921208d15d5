// Package gemm is a float32 matrix product for row-major matrices, fast without cgo: the
// GotoBLAS/BLIS scheme of register-blocked micro-kernels over cache-sized blocks, with the
// micro-kernels in Go assembly for AVX-512 (12 x 32 tiles) and AVX2+FMA (6 x 16), chosen at run
// time from the CPU's features, and a plain Go kernel (4 x 4) for other CPUs and the noasm tag.
//
// Packing is kept to what the kernels cannot read in place: the micro-kernels take op(a) with
// any row and column stride, so a is read where it lies whether transposed or not, and op(b)
// row by row, so an untransposed b is too. A transposed b is copied into column panels
// (16 x 16 register transposes on AVX-512), and partial tiles at the edges go through small
// zero-padded buffers. All buffers come from a sync.Pool, so a call does not allocate.
//
// Sgemm runs on the calling goroutine; callers split large products over cores themselves
// (spg-tui/linalg/backend.GemmParallel).
package gemm

// Package gemm is a float32 matrix product for row-major matrices, fast without cgo: the
// GotoBLAS/BLIS scheme of register-blocked micro-kernels over cache-sized blocks, with the
// micro-kernels in Go assembly for AVX-512 (12 x 32 tiles) and AVX2+FMA (6 x 16, and 6 x 8 for a
// last panel of at most 8 columns), chosen at run time from the CPU's features, and a plain Go
// kernel (4 x 4) for other CPUs and the noasm tag. A product with one column is computed as its
// transpose, one row, by kernels of one row (1 x 32, 1 x 16), so that no lanes idle, or, where a
// is untransposed, 16 (AVX-512) or 8 (AVX2) rows of a at a time transposed in registers.
//
// Packing is kept to what the kernels cannot read in place or read faster from a copy: the
// micro-kernels take op(a) with any row and column stride, so a is read where it lies whether
// transposed or not, and op(b) row by row, so an untransposed b is too (the AVX2 kernel reads
// each panel of it from a contiguous copy made just before the panel's sweep). A transposed b
// is copied into column panels (16 x 16 register transposes), and a transposed a back into rows
// where its row stride would crowd L1, or always for the AVX2 kernel (see packTransA). A block
// is computed panel by panel, or, where its k is at most 32 and c is the traffic, row group by
// row group; the AVX2 kernels sweep a panel's whole row groups, or a row group's whole panels,
// in one call. At the edges the AVX-512 kernel stores only the rows and columns inside c
// (opmasks), so a partial last row group overlaps the one before it; the other kernels overlap
// it too when beta is zero (rewriting equal values), compute other partial tiles into a scratch
// tile that is merged into c, and read a last partial row group in place where a extends past
// it. The last columns of an untransposed b, and the last rows of a where a ends with them, go
// through small buffers. All buffers come from a sync.Pool, so a call does not allocate.
//
// Every element of c is the same sequence of float32 operations whatever its place in the
// tiling (the kernels round alpha acc and beta c separately, as the merge does), so splitting
// a product into blocks of rows or columns does not change the result.
//
// Sgemm runs on the calling goroutine; callers split large products over cores themselves
// (spg-tui/linalg/backend.GemmParallel).
package gemm

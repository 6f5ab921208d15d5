// Package backend chooses the BLAS implementation behind gonum's blas32 and blas64 packages,
// which the kernels in spg-tui/linalg use, and gives the kernels their typed GEMM entry points.
//
// The default build needs no cgo: blas32 and gorgonia get gonum's pure-Go BLAS with its Sgemm
// replaced by spg-tui/linalg/gemm (Go assembly micro-kernels for AVX-512 and AVX2, a Go kernel
// elsewhere), installed as soon as this package is imported; blas64 (gradient checks only)
// stays gonum's. Building with the tag openblas switches blas32 and blas64 to OpenBLAS through
// gonum.org/v1/netlib (cgo, linked with -lopenblas) instead. OpenBLAS 0.3.21 does not
// recognise recent AVX-512 CPUs and then silently runs its slowest kernels, so programs should
// call EnsureCoreType first thing in main.
//
// Threading: both builds run each BLAS call on the calling thread (the openblas build unless
// OPENBLAS_NUM_THREADS or the like is set) and the kernels split their work over goroutines
// instead: GemmParallel by blocks of rows or columns, the GRU by batch rows for the whole
// sequence, the elementwise passes by rows. OpenBLAS's own threads cost more CPU time per
// training step for no less wall time, their idle workers spinning between calls against the
// goroutines (docs/benchmarks.md, "Backends").
package backend

import "gonum.org/v1/gonum/blas"

// BLAS is a BLAS implementation for all four element types. It has the same method set as
// gorgonia's BLAS interface, so a non-nil value from Implementation can be passed to gorgonia.Use.
type BLAS interface {
	blas.Float32
	blas.Float64
	blas.Complex64
	blas.Complex128
}

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
// sequence, the elementwise passes by rows. On the 2-core development machine OpenBLAS's own
// 2 threads (without the splitting in Go) cost 30-60% more CPU time per training step, for no
// less wall time: its idle workers spin between calls and compete with the goroutines (mwm
// N=20: 85-113 CPU ms against 66-87; N=50: 254-362 against 223-233; tsp N=20: 262-335 against
// 240-246, on a loaded machine).
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

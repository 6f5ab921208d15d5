// Package backend chooses the BLAS implementation behind gonum's blas32 and blas64 packages,
// which the kernels in spg-tui/linalg use.
//
// The default build uses gonum's pure-Go BLAS. Building with the tag openblas switches blas32
// and blas64 to OpenBLAS through gonum.org/v1/netlib (cgo, linked with -lopenblas) as soon as
// this package is imported. OpenBLAS 0.3.21 does not recognise recent AVX-512 CPUs and then
// silently runs its slowest kernels, so programs should call EnsureCoreType first thing in main.
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

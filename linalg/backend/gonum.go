//go:build !openblas

package backend

import "spg-tui/linalg/parallel"

// Name describes the BLAS in use.
func Name() string { return "pure Go (gonum)" }

// Implementation returns the BLAS to hand to gorgonia (gorgonia.Use), or nil when the build
// uses gonum's pure-Go BLAS, which is already gorgonia's default.
func Implementation() BLAS { return nil }

// EnsureCoreType does nothing in the pure-Go build; see the openblas build.
func EnsureCoreType() {}

// Threads returns how many goroutines gonum's BLAS may use for one call: it splits large
// products over all cores itself, so GemmParallel leaves them to it.
func Threads() int { return parallel.Workers(1 << 30) }

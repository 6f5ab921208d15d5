//go:build !openblas

package backend

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"

	"spg-tui/linalg/gemm"
)

// goBLAS is the default build's BLAS: gonum's pure-Go BLAS with its float32 matrix product
// replaced by spg-tui/linalg/gemm (assembly micro-kernels, no cgo).
type goBLAS struct{ gonum.Implementation }

// Sgemm is gemm.Sgemm.
func (goBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// init installs goBLAS as blas32's before any kernel runs, so importing this package
// is enough. gemm.Sgemm runs on the calling goroutine, so GemmParallel splits large products
// over the cores in Go, as in the OpenBLAS build.
func init() {
	blas32.Use(goBLAS{})
	splitInGo = true
	colSums32 = gemm.ColSums
}

// ExactSplits reports that a product split into blocks (GemmParallel) gives the same bits as
// one call: gemm's kernels round alpha·acc and beta·c the same way whatever the block.
const ExactSplits = true

// AddsOnce reports whether Gemm with beta = 1, alpha = 1 and inner dimension k sets c to
// (the product, rounded) + c, one rounding, so that the caller may add c after a beta = 0
// product instead: gemm's kernels do for k in one block.
func AddsOnce(k int) bool { return gemm.OneKBlock(k) }

// Name describes the BLAS in use, with the micro-kernel gemm chose for this CPU.
func Name() string { return "pure Go (gemm " + gemm.KernelName() + ")" }

// Implementation returns the BLAS to hand to gorgonia (gorgonia.Use), so that gorgonia's own
// float32 products run on the same kernel as the fused ops.
func Implementation() BLAS { return goBLAS{} }

// Check reports a BLAS set-up that cannot run as asked, in one line: here, a gemm kernel named
// by gemm.KernelEnv that this CPU does not run.
func Check() error { return gemm.KernelEnvError() }

// EnsureCoreType does nothing in the pure-Go build; see the openblas build.
func EnsureCoreType() {}

// Threads returns how many threads one BLAS call uses: 1 (gemm.Sgemm is single-threaded;
// GemmParallel splits).
func Threads() int { return 1 }

//go:build !openblas

package backend

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"

	"spg-tui/linalg/gemm"
	"spg-tui/linalg/parallel"
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
	colSums32 = colSumsSplit
	splitK32 = sgemmSplitK
}

// kParts holds sgemmSplitK's per-block products between calls, so that a step's dot products
// allocate nothing.
var kParts = sync.Pool{New: func() any { return new([]float32) }}

// sgemmSplitK is gemm.Sgemm computed by blocks of gemm.KBlock of k over the cores: the first
// block into c as gemm computes it, each later one into a part of its own (beta = 0), and the
// parts then added to c in block order, as gemm adds them, so the bits are one call's. It
// declines (false) products of fewer than two blocks and alpha = 0 (c = beta c, no blocks).
func sgemmSplitK(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) bool {
	blocks := (k + gemm.KBlock - 1) / gemm.KBlock
	if blocks < 2 || alpha == 0 || m == 0 || n == 0 {
		return false
	}
	pp := kParts.Get().(*[]float32)
	defer kParts.Put(pp)
	if need := (blocks - 1) * m * n; len(*pp) < need {
		*pp = make([]float32, need)
	}
	parts := *pp
	parallel.For(blocks, func(_, lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			pc := blk * gemm.KBlock
			kc := min(gemm.KBlock, k-pc)
			ao, bo := pc, pc*ldb // op(a)[i][p] = a[i*lda+p], op(b)[p][j] = b[p*ldb+j]
			if tA != blas.NoTrans {
				ao = pc * lda
			}
			if tB != blas.NoTrans {
				bo = pc
			}
			if blk == 0 {
				gemm.Sgemm(tA, tB, m, n, kc, alpha, a, lda, b, ldb, beta, c, ldc)
				continue
			}
			gemm.Sgemm(tA, tB, m, n, kc, alpha, a[ao:], lda, b[bo:], ldb, 0, parts[(blk-1)*m*n:], n)
		}
	})
	for blk := 1; blk < blocks; blk++ {
		part := parts[(blk-1)*m*n:]
		for i := range m {
			row := c[i*ldc:][:n]
			for j, p := range part[i*n:][:n] {
				row[j] += p
			}
		}
	}
	return true
}

// minSplitColSums is the size (m*n) above which colSumsSplit splits the columns over the
// cores: the pair MLP's bias gradients (51,200 x 32 or 64, 0.3-0.7 ms on one core) ran in
// the serial part of the step.
const minSplitColSums = 1 << 17

// colSumsSplit is gemm.ColSums over blocks of 16 columns split over the cores for large a.
// Each column is still summed alone from row 0 down, so the bits do not depend on the split.
func colSumsSplit(m int, a []float32, lda int, y []float32) bool {
	n := len(y)
	blocks := (n + 15) / 16
	if m*n < minSplitColSums || blocks < 2 || !gemm.HasColSums(n) {
		return gemm.ColSums(m, a, lda, y)
	}
	parallel.For(blocks, func(_, lo, hi int) {
		j0, j1 := lo*16, min(hi*16, n)
		gemm.ColSums(m, a[j0:], lda, y[j0:j1])
	})
	return true
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

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

// kParts holds sgemmSplitK's per-block products between calls, so that a step's weight
// gradients allocate nothing.
var kParts = sync.Pool{New: func() any { return new([]float32) }}

// minParallelFold is the number of additions (blocks times m*n) above which sgemmSplitK adds
// the parts to c by rows of c over the cores rather than on the caller.
const minParallelFold = 1 << 16

// maxKParts bounds the floats sgemmSplitK's parts take (4 MiB): a product of more blocks runs
// in rounds, each adding its parts to c before the next. A variable so that tests can make
// rounds of small products.
var maxKParts = 1 << 20

// sgemmSplitK is gemm.Sgemm computed by blocks of gemm.KBlock of k over the cores, with the bits
// of one call. In each round every core takes a run of whole blocks: the first run goes into c
// by one gemm call (alpha, and beta in the first round, 1 after), which adds its blocks in
// order as the whole call would; every later block into a part of its own (beta = 0). The parts
// are then added to c in block order, as gemm adds them, each element of c alone. At one core it
// makes the one call. It declines (false) products of fewer than two blocks and alpha = 0
// (c = beta c, no blocks).
func sgemmSplitK(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) bool {
	blocks := (k + gemm.KBlock - 1) / gemm.KBlock
	if blocks < 2 || alpha == 0 || m == 0 || n == 0 {
		return false
	}
	w := parallel.Workers(blocks)
	if w == 1 { // one core: one call, still in a parallel loop so that the serial part measures the same
		parallel.For(1, func(_, _, _ int) { gemm.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) })
		return true
	}
	mn := m * n
	per := max(1, min((blocks+w-1)/w, maxKParts/((w-1)*mn))) // blocks per run
	pp := kParts.Get().(*[]float32)
	defer kParts.Put(pp)
	if need := (w - 1) * per * mn; len(*pp) < need {
		*pp = make([]float32, need)
	}
	parts := *pp
	// block returns op(a)'s and op(b)'s offsets and the depth of the block starting at row pc of k.
	block := func(pc int) (ao, bo, kc int) {
		ao, bo = pc, pc*ldb // op(a)[i][p] = a[i*lda+p], op(b)[p][j] = b[p*ldb+j]
		if tA != blas.NoTrans {
			ao = pc * lda
		}
		if tB != blas.NoTrans {
			bo = pc
		}
		return ao, bo, min(gemm.KBlock, k-pc)
	}
	for b0 := 0; b0 < blocks; b0 += w * per {
		round := min(w*per, blocks-b0)
		first := round / w // run 0's blocks, into c; the round's others into parts
		parallel.For(w, func(run, _, _ int) {
			lo, hi := b0+run*round/w, b0+(run+1)*round/w
			if run == 0 {
				if hi > lo {
					ao, bo, _ := block(lo * gemm.KBlock)
					cb := float32(1)
					if lo == 0 {
						cb = beta
					}
					gemm.Sgemm(tA, tB, m, n, (hi-lo)*gemm.KBlock, alpha, a[ao:], lda, b[bo:], ldb, cb, c, ldc)
				}
				return
			}
			for blk := lo; blk < hi; blk++ {
				ao, bo, kc := block(blk * gemm.KBlock)
				gemm.Sgemm(tA, tB, m, n, kc, alpha, a[ao:], lda, b[bo:], ldb, 0, parts[(blk-b0-first)*mn:], n)
			}
		})
		fold := func(lo, hi int) { // rows lo..hi of c, the round's parts in order
			for blk := range round - first {
				part := parts[blk*mn:]
				for i := lo; i < hi; i++ {
					row := c[i*ldc:][:n]
					for j, p := range part[i*n:][:n] {
						row[j] += p
					}
				}
			}
		}
		if (round-first)*mn < minParallelFold {
			fold(0, m)
		} else {
			parallel.For(m, func(_, lo, hi int) { fold(lo, hi) })
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

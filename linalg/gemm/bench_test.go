package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
	"gonum.org/v1/gonum/blas/gonum"
)

// benchShape is one GEMM of the training step at MWM N = 20 (or 10 where named), B = 128,
// H = 128 (per goroutine where the caller splits it over 2 cores).
type benchShape struct {
	name        string
	tA, tB      bool
	m, n, k     int
	alpha, beta float32
	padA, padB  int // lda and ldb beyond the widths, as the caller's strided operands have
}

// StepShapes are the products of one training step that BenchmarkSgemm times.
var stepShapes = []benchShape{
	{name: "gru-hidden-fwd", tB: true, m: 64, n: 384, k: 128, alpha: 1},
	{name: "gru-input-fwd", tB: true, m: 1280, n: 384, k: 20, alpha: 1},
	{name: "gru-carry-bwd", m: 64, n: 128, k: 384, alpha: 1, beta: 1},
	{name: "gru-dW", tA: true, m: 384, n: 128, k: 2560, alpha: 1},
	{name: "gru-dWhh-strided", tA: true, m: 192, n: 128, k: 2560, alpha: 1, padA: 512 - 192, padB: 640 - 128}, // one core's half, lda = 4H, ldb = 5H
	{name: "gru-dX", m: 1280, n: 20, k: 256, alpha: 1},
	{name: "pair-dW", tA: true, m: 64, n: 64, k: 25600, alpha: 1}, // best's SPG+Pairwise at MWM-20, one core's half, lda = 64
	// The rest of that pair MLP (6 -> 64 -> 64 -> 1 over B N^2 = 51,200 pairs): the forward
	// products in Dense's row tiles, the input gradients and weight gradients on one core's half.
	{name: "pair-fwd-in", m: 936, n: 64, k: 6, alpha: 1},
	{name: "pair-fwd-hidden", m: 512, n: 64, k: 64, alpha: 1},
	{name: "pair-fwd-head", m: 1008, n: 1, k: 64, alpha: 1},
	{name: "pair-dX-hidden", tB: true, m: 25600, n: 64, k: 64, alpha: 1},
	{name: "pair-dX-head", tB: true, m: 25600, n: 64, k: 1, alpha: 1},
	{name: "pair-dW-in", tA: true, m: 6, n: 64, k: 25600, alpha: 1},
	{name: "pair-dW-head", tA: true, m: 64, n: 1, k: 25600, alpha: 1},
	{name: "dense-head-fwd", m: 2560, n: 20, k: 128, alpha: 1},
	{name: "dense-embed-fwd", m: 5120, n: 128, k: 2, alpha: 1},
	{name: "outer-fwd", tB: true, m: 20, n: 20, k: 128, alpha: 1},
	{name: "outer-bwd", tA: true, m: 20, n: 128, k: 20, alpha: 1},
	{name: "dense-head-fwd-N10", m: 1280, n: 10, k: 128, alpha: 1},
	{name: "dense-head-dW-N10", tA: true, m: 128, n: 10, k: 1280, alpha: 1},
	{name: "outer-fwd-N10", tB: true, m: 10, n: 10, k: 128, alpha: 1},
	{name: "outer-bwd-N10", tA: true, m: 10, n: 128, k: 10, alpha: 1},
	{name: "outer-dx-N10", m: 10, n: 128, k: 10, alpha: 1},
	// Narrow weight gradients (computed as their transposes, or row by row; narrow.go): the
	// GRU's input weights over its 20 features (lda = 4H), the head's (128 -> 20) and the
	// embedding's (2 -> 128), whole and one core's half.
	{name: "gru-dWih-rz", tA: true, m: 256, n: 20, k: 2560, alpha: 1, padA: 256},
	{name: "gru-dWih-rz-half", tA: true, m: 128, n: 20, k: 2560, alpha: 1, padA: 384},
	{name: "gru-dWih-n-half", tA: true, m: 64, n: 20, k: 2560, alpha: 1, padA: 448},
	{name: "dense-head-dW", tA: true, m: 128, n: 20, k: 2560, alpha: 1},
	{name: "dense-head-dW-half", tA: true, m: 64, n: 20, k: 2560, alpha: 1, padA: 64},
	{name: "dense-embed-dW", tA: true, m: 2, n: 128, k: 5120, alpha: 1},
	{name: "dense-embed-dW-half", tA: true, m: 2, n: 64, k: 5120, alpha: 1, padB: 64},
	// The GRU's per-step products as the step calls them: the starting states strided by a
	// sequence's saved rows (T x 5H at N = 20), Whh^T read in place; the carried gradient alike.
	{name: "gru-hidden-step", m: 64, n: 384, k: 128, alpha: 1, padA: 12800 - 128},
	{name: "gru-carry-step", m: 64, n: 128, k: 384, alpha: 1, beta: 1, padA: 10240 - 384},
	{name: "square-256", m: 256, n: 256, k: 256, alpha: 1},
}

// benchOperands returns dense operands for s.
func benchOperands(s benchShape) (p problem, a, b, c []float32) {
	p = problem{tA: s.tA, tB: s.tB, m: s.m, n: s.n, k: s.k, alpha: s.alpha, beta: s.beta}.withPads(s.padA, s.padB, 0)
	a, b, c = p.operands(rand.New(rand.NewPCG(1, 1)))
	clear(c)
	return p, a, b, c
}

// benchGemm times fn on every step shape and reports GFLOP/s (2mnk per call) of wall time and,
// as cpu-GFLOP/s, of the benchmark thread's CPU time in the fastest tenth of the calls: on a
// shared machine the other tenths lose caches and cycles to other processes, which wall and
// process CPU time both count. Run with -cpu 1 for single-core numbers: gonum splits its
// products over GOMAXPROCS goroutines.
func benchGemm(b *testing.B, fn func(p problem, a, bm, c []float32)) {
	for _, s := range stepShapes {
		b.Run(fmt.Sprintf("%s-%dx%dx%d", s.name, s.m, s.n, s.k), func(b *testing.B) {
			p, a, bm, c := benchOperands(s)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			chunk, best := max(1, b.N/10), math.Inf(1)
			b.ResetTimer()
			for i := 0; i < b.N; i += chunk {
				calls := min(chunk, b.N-i)
				t0 := threadCPU()
				for range calls {
					fn(p, a, bm, c)
				}
				if d := threadCPU() - t0; d > 0 {
					best = min(best, d/float64(calls))
				}
			}
			flop := 2 * float64(s.m*s.n*s.k)
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if !math.IsInf(best, 1) {
				b.ReportMetric(flop/best/1e9, "cpu-GFLOP/s")
			}
		})
	}
}

// threadCPU is the calling thread's CPU time in seconds.
func threadCPU() float64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return float64(ts.Nano()) / 1e9
}

// BenchmarkSgemm times Sgemm on the step's shapes with every kernel this CPU runs
// (BenchmarkSgemm/avx512/..., /avx2/..., /go/...); Sgemm itself uses the widest.
func BenchmarkSgemm(b *testing.B) {
	for _, kn := range supported {
		b.Run(kn.name, func(b *testing.B) {
			benchGemm(b, func(p problem, a, bm, c []float32) {
				sgemm(kn, trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, bm, p.ldb, p.beta, c, p.ldc)
			})
		})
	}
}

// BenchmarkSgemmGonum times gonum's pure-Go Sgemm, the default build's BLAS before this package.
func BenchmarkSgemmGonum(b *testing.B) {
	benchGemm(b, func(p problem, a, bm, c []float32) {
		gonum.Implementation{}.Sgemm(trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, bm, p.ldb, p.beta, c, p.ldc)
	})
}

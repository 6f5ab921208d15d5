package gemm

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

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
	{name: "dense-head-fwd", m: 2560, n: 20, k: 128, alpha: 1},
	{name: "dense-embed-fwd", m: 5120, n: 128, k: 2, alpha: 1},
	{name: "outer-fwd", tB: true, m: 20, n: 20, k: 128, alpha: 1},
	{name: "outer-bwd", tA: true, m: 20, n: 128, k: 20, alpha: 1},
	{name: "dense-head-fwd-N10", m: 1280, n: 10, k: 128, alpha: 1},
	{name: "dense-head-dW-N10", tA: true, m: 128, n: 10, k: 1280, alpha: 1},
	{name: "outer-fwd-N10", tB: true, m: 10, n: 10, k: 128, alpha: 1},
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
// as cpu-GFLOP/s, of the process's CPU time, which a shared machine's load moves much less. Run
// with -cpu 1 for single-core numbers: gonum splits its products over GOMAXPROCS goroutines.
func benchGemm(b *testing.B, fn func(p problem, a, bm, c []float32)) {
	for _, s := range stepShapes {
		b.Run(fmt.Sprintf("%s-%dx%dx%d", s.name, s.m, s.n, s.k), func(b *testing.B) {
			p, a, bm, c := benchOperands(s)
			cpu0 := cpuTime()
			for b.Loop() {
				fn(p, a, bm, c)
			}
			flop := 2 * float64(s.m*s.n*s.k) * float64(b.N)
			b.ReportMetric(flop/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu := (cpuTime() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(flop/cpu/1e9, "cpu-GFLOP/s")
			}
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
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

package gru

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"spg-tui/internal/benchcpu"
)

// benchDims are the actor/critic shapes: B = H = 128, T = I = N for N = 20 and 50.
var benchDims = []Dims{{B: 128, T: 20, I: 20, H: 128}, {B: 128, T: 50, I: 50, H: 128}}

type benchBufs struct {
	out, x, h0, wih, whh, bih, bhh, saved, work []float32
	dx, dh0, dwih, dwhh, dbih, dbhh             []float32
}

func newBenchBufs(d Dims) *benchBufs {
	rng := rand.New(rand.NewPCG(5, 5))
	r := func(n int, scale float32) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = scale * float32(rng.NormFloat64())
		}
		return s
	}
	return &benchBufs{
		out: r(d.B*d.T*d.H, 1), x: r(d.B*d.T*d.I, 1), h0: r(d.B*d.H, 0.5),
		wih: r(3*d.H*d.I, 0.1), whh: r(3*d.H*d.H, 0.1), bih: r(3*d.H, 0.1), bhh: r(3*d.H, 0.1),
		saved: make([]float32, SavedLen(d)), work: make([]float32, WorkLen(d)),
		dx: make([]float32, d.B*d.T*d.I), dh0: make([]float32, d.B*d.H),
		dwih: make([]float32, 3*d.H*d.I), dwhh: make([]float32, 3*d.H*d.H),
		dbih: make([]float32, 3*d.H), dbhh: make([]float32, 3*d.H),
	}
}

// benchEach times op on each of benchDims's sizes, after Forward has run once on the buffers
// when forwardFirst (Backward reads what it saved).
func benchEach(b *testing.B, forwardFirst bool, op func(d Dims, s *benchBufs)) {
	for _, d := range benchDims {
		b.Run(fmt.Sprintf("B%d_T%d_I%d_H%d", d.B, d.T, d.I, d.H), func(b *testing.B) {
			s := newBenchBufs(d)
			if forwardFirst {
				Forward(d, s.out, s.x, s.h0, s.wih, s.whh, s.bih, s.bhh, s.saved, s.work, false)
			}
			b.ReportAllocs()
			cpu := benchcpu.Start()
			for b.Loop() {
				op(d, s)
			}
			cpu.Report(b)
		})
	}
}

func BenchmarkForward(b *testing.B) {
	benchEach(b, false, func(d Dims, s *benchBufs) {
		Forward(d, s.out, s.x, s.h0, s.wih, s.whh, s.bih, s.bhh, s.saved, s.work, false)
	})
}

// BenchmarkBackward takes dout = out, as good a gradient as any for timing.
func BenchmarkBackward(b *testing.B) {
	benchEach(b, true, func(d Dims, s *benchBufs) {
		Backward(d, s.dx, s.dh0, s.dwih, s.dwhh, s.dbih, s.dbhh, s.out, s.x, s.wih, s.whh, s.saved, s.work, false)
	})
}

// BenchmarkBackwardFrozen is Backward without the weight gradients (frozen weights).
func BenchmarkBackwardFrozen(b *testing.B) {
	benchEach(b, true, func(d Dims, s *benchBufs) {
		Backward(d, s.dx, nil, nil, nil, nil, nil, s.out, s.x, s.wih, s.whh, s.saved, s.work, false)
	})
}

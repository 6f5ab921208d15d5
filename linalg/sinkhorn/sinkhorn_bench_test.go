package sinkhorn

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchSizes are the training-step shapes: batch 128, n = 20 and 50.
var benchSizes = []struct{ b, n int }{{128, 20}, {128, 50}}

const (
	benchIters = 10
	benchTau   = 0.05
)

// benchInput returns logits of the scale a trained actor produces (|x| up to a few units).
func benchInput(b, n int) []float64 {
	return randSlice(rand.New(rand.NewPCG(7, 8)), b*n*n, 3)
}

func BenchmarkForward(b *testing.B) {
	for _, sz := range benchSizes {
		x := benchInput(sz.b, sz.n)
		b.Run(fmt.Sprintf("f32/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchForward(b, to32(x), sz.b, sz.n, true)
		})
		b.Run(fmt.Sprintf("f64/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchForward(b, x, sz.b, sz.n, true)
		})
	}
}

// BenchmarkForwardNoSave times Forward without saved, as when acting.
func BenchmarkForwardNoSave(b *testing.B) {
	for _, sz := range benchSizes {
		x := benchInput(sz.b, sz.n)
		b.Run(fmt.Sprintf("f32/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchForward(b, to32(x), sz.b, sz.n, false)
		})
		b.Run(fmt.Sprintf("f64/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchForward(b, x, sz.b, sz.n, false)
		})
	}
}

// benchForward times Forward, keeping saved if save is set (as in a training step).
func benchForward[T Float](b *testing.B, x []T, bs, n int, save bool) {
	m := make([]T, len(x))
	var saved []T
	if save {
		saved = make([]T, SavedLen(bs, n, benchIters))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		Forward(m, x, bs, n, T(benchTau), benchIters, saved)
	}
}

func BenchmarkBackward(b *testing.B) {
	for _, sz := range benchSizes {
		x := benchInput(sz.b, sz.n)
		dm := randSlice(rand.New(rand.NewPCG(9, 10)), len(x), 1)
		b.Run(fmt.Sprintf("f32/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchBackward(b, to32(x), to32(dm), sz.b, sz.n)
		})
		b.Run(fmt.Sprintf("f64/B=%d/N=%d", sz.b, sz.n), func(b *testing.B) {
			benchBackward(b, x, dm, sz.b, sz.n)
		})
	}
}

// benchBackward times Backward after one untimed Forward.
func benchBackward[T Float](b *testing.B, x, dm []T, bs, n int) {
	m := make([]T, len(x))
	dx := make([]T, len(x))
	saved := make([]T, SavedLen(bs, n, benchIters))
	Forward(m, x, bs, n, T(benchTau), benchIters, saved)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		Backward(dx, dm, saved, bs, n, T(benchTau), benchIters)
	}
}

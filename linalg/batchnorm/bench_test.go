package batchnorm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchShapes are the critics' (B, N, 128) activations for N = 20 and 50.
var benchShapes = []shape{{128, 20, 128}, {128, 50, 128}}

func benchData(s shape) (x, gamma, beta []float32) {
	rng := rand.New(rand.NewPCG(5, 5))
	x = make([]float32, s.b*s.c*s.f)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	gamma, beta = make([]float32, s.c), make([]float32, s.c)
	for i := range gamma {
		gamma[i] = 1
	}
	return x, gamma, beta
}

func BenchmarkForward(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("%dx%dx%d", s.b, s.c, s.f), func(b *testing.B) {
			x, gamma, beta := benchData(s)
			y, mean, invStd := make([]float32, len(x)), make([]float32, s.c), make([]float32, s.c)
			b.ReportAllocs()
			for b.Loop() {
				Forward(y, x, gamma, beta, s.b, s.c, s.f, DefaultEps, mean, invStd)
			}
		})
	}
}

func BenchmarkBackward(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("%dx%dx%d", s.b, s.c, s.f), func(b *testing.B) {
			x, gamma, beta := benchData(s)
			y, mean, invStd := make([]float32, len(x)), make([]float32, s.c), make([]float32, s.c)
			Forward(y, x, gamma, beta, s.b, s.c, s.f, DefaultEps, mean, invStd)
			dx, dgamma, dbeta := make([]float32, len(x)), make([]float32, s.c), make([]float32, s.c)
			b.ReportAllocs()
			for b.Loop() {
				Backward(dx, dgamma, dbeta, y, x, gamma, mean, invStd, s.b, s.c, s.f)
			}
		})
	}
}

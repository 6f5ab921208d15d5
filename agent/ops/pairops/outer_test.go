package pairops

import (
	"math/rand/v2"
	"runtime"
	"spg-tui/agent/ops/internal/opstest"
	"spg-tui/linalg/backend"
	"testing"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestPairOuter(t *testing.T) {
	const b, n, h = 2, 3, 4
	rng := rand.New(rand.NewPCG(25, 26))
	x := opstest.RandDense(rng, b, 2*n, h)
	xd := x.Float64s()
	want := make([]float64, b*n*n)
	for bi := range b {
		for i := range n {
			for j := range n {
				var s float64
				for k := range h {
					s += xd[(bi*2*n+n+i)*h+k] * xd[(bi*2*n+j)*h+k]
				}
				want[(bi*n+i)*n+j] = s
			}
		}
	}
	build := func(p []*G.Node) (*G.Node, error) { return PairOuter(p[0]) }
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return build(p)
	})

	g := G.NewGraph()
	odd := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("odd"))
	if _, err := PairOuter(odd); err == nil {
		t.Error("PairOuter accepted an odd number of rows")
	}
}

// TestPairOuterSplitExact checks a batch large enough to be split over goroutines against one
// product per instance on the calling goroutine, bit for bit, both ways.
func TestPairOuterSplitExact(t *testing.T) {
	const b, n, h = 64, 32, 64 // b*2n^2h >= minSplitOuterFlops
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(33, 34))
	x, de := make([]float32, b*2*n*h), make([]float32, b*n*n)
	for _, s := range [][]float32{x, de} {
		for i := range s {
			s[i] = 2*rng.Float32() - 1
		}
	}
	k := &pairOuter[float32]{}
	in := []*tensor.Dense{tensor.New(tensor.WithShape(b, 2*n, h), tensor.WithBacking(x))}
	e := tensor.New(tensor.WithShape(b, n, n), tensor.WithBacking(make([]float32, b*n*n)))
	dx := tensor.New(tensor.WithShape(b, 2*n, h), tensor.WithBacking(make([]float32, b*2*n*h)))
	if err := k.Forward(in, e); err != nil {
		t.Fatal(err)
	}
	if err := k.Backward(in, e, tensor.New(tensor.WithShape(b, n, n), tensor.WithBacking(de)), []*tensor.Dense{dx}); err != nil {
		t.Fatal(err)
	}
	wantE, wantDx := make([]float32, b*n*n), make([]float32, b*2*n*h)
	for bi := range b {
		ea, eb := x[bi*2*n*h:][:n*h], x[(bi*2*n+n)*h:][:n*h]
		g := de[bi*n*n:][:n*n]
		backend.Gemm(blas.NoTrans, blas.Trans, n, n, h, 1, eb, h, ea, h, 0, wantE[bi*n*n:][:n*n], n)
		backend.Gemm(blas.NoTrans, blas.NoTrans, n, h, n, 1, g, n, ea, h, 0, wantDx[(bi*2*n+n)*h:][:n*h], h)
		backend.Gemm(blas.Trans, blas.NoTrans, n, h, n, 1, g, n, eb, h, 0, wantDx[bi*2*n*h:][:n*h], h)
	}
	for i, v := range e.Float32s() {
		if v != wantE[i] {
			t.Fatalf("E[%d] = %v, want %v", i, v, wantE[i])
		}
	}
	for i, v := range dx.Float32s() {
		if v != wantDx[i] {
			t.Fatalf("dx[%d] = %v, want %v", i, v, wantDx[i])
		}
	}
}

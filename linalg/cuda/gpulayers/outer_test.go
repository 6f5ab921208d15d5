package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/pairops"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// tensor3 returns a float32 input node of shape (a, b, c) holding v.
func tensor3(g *G.ExprGraph, name string, v []float32, a, b, c int) *G.Node {
	return G.NewTensor(g, tensor.Float32, 3, G.WithShape(a, b, c), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(a, b, c), tensor.WithBacking(append([]float32(nil), v...)))))
}

func TestPairOuter(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(21, 22))
	for _, s := range [][3]int{{1, 1, 1}, {3, 5, 4}, {2, 20, 33}} {
		b, n, h := s[0], s[1], s[2]
		x, de := emutest.Normals(rng, 2*b*n*h, 1), emutest.Normals(rng, b*n*n, 1)
		g := G.NewGraph()
		xn := tensor3(g, "x", x, b, 2*n, h)
		e, err := pairops.PairOuter(xn)
		if err != nil {
			t.Fatal(err)
		}
		runGraph(t, g, G.Must(G.Sum(G.Must(G.HadamardProd(e, tensor3(g, "de", de, b, n, n))))), xn)

		xb, eb, dxb := emutest.Upload(t, x), emutest.Zeros(t, b*n*n), emutest.Zeros(t, len(x))
		if err := gpulayers.PairOuterForward(dev, eb, xb, b, n, h); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "E", emutest.Download(t, eb), e.Value().Data().([]float32), 1e-6)
		if err := gpulayers.PairOuterBackward(dev, dxb, emutest.Upload(t, de), xb, b, n, h); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "dx", emutest.Download(t, dxb), grad(t, xn), 1e-6)
	}
	if err := gpulayers.PairOuterForward(dev, emutest.Zeros(t, 3), emutest.Zeros(t, 8), 1, 2, 2); err == nil {
		t.Error("PairOuterForward with a short e: no error")
	}
}

func TestAdd(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 257, 1000} {
		a, b := emutest.Normals(rng, n, 1), emutest.Normals(rng, n, 1)
		want := make([]float32, n)
		for i := range want {
			want[i] = a[i] + b[i]
		}
		ab, bb := emutest.Upload(t, a), emutest.Upload(t, b)
		if err := gpulayers.Add(dev, ab, ab, bb); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "a + b", emutest.Download(t, ab), want)
	}
	if err := gpulayers.Add(dev, emutest.Zeros(t, 2), emutest.Zeros(t, 3), emutest.Zeros(t, 3)); err == nil {
		t.Error("Add into a short y: no error")
	}
}

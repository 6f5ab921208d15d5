package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/pairops"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// value runs a graph without gradients and returns node n's values.
func value(t *testing.T, g *G.ExprGraph, n *G.Node) []float32 {
	t.Helper()
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	return n.Value().Data().([]float32)
}

// adjacency returns b random graphs' adjacency matrices of n nodes (symmetric, no loops), some
// nodes isolated.
func adjacency(rng *rand.Rand, b, n int) []float32 {
	a := make([]float32, b*n*n)
	for s := range b {
		for i := range n {
			for j := range i {
				if i != 1 && j != 1 && rng.IntN(2) == 0 { // node 1 is isolated
					a[(s*n+i)*n+j], a[(s*n+j)*n+i] = 1, 1
				}
			}
		}
	}
	return a
}

func TestPairDistances(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(49, 50))
	for _, s := range [][2]int{{1, 1}, {3, 7}, {2, 30}} {
		b, n := s[0], s[1]
		x := emutest.Normals(rng, b*4*n, 1)
		g := G.NewGraph()
		d, err := pairops.PairDistances(tensor3(g, "x", x, b, 2*n, 2))
		if err != nil {
			t.Fatal(err)
		}
		want := value(t, g, d)
		db := emutest.Zeros(t, b*n*n)
		if err := gpulayers.PairDistances(dev, db, emutest.Upload(t, x), b, n); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "distances", emutest.Download(t, db), want)
	}
}

func TestRowMeanAndGraphPairFeatures(t *testing.T) {
	if gpulayers.GraphPairWidth != pairops.GraphPairWidth {
		t.Fatalf("gpulayers.GraphPairWidth = %d, pairops.GraphPairWidth = %d", gpulayers.GraphPairWidth, pairops.GraphPairWidth)
	}
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(51, 52))
	for _, s := range [][2]int{{1, 2}, {3, 7}, {2, 40}} {
		b, n := s[0], s[1]
		x := adjacency(rng, 2*b, n) // G1 then G2 of each state
		g := G.NewGraph()
		xn := tensor3(g, "x", x, b, 2*n, n)
		mean, err := pairops.RowMean(tensor3(g, "adj", x, 2*b, n, n))
		if err != nil {
			t.Fatal(err)
		}
		f, err := pairops.GraphPairFeatures(xn)
		if err != nil {
			t.Fatal(err)
		}
		wantMean := value(t, g, mean)
		wantF := f.Value().Data().([]float32)

		xb := emutest.Upload(t, x)
		mb, fb := emutest.Zeros(t, len(x)), emutest.Zeros(t, b*n*n*gpulayers.GraphPairWidth)
		if err := gpulayers.RowMean(dev, mb, xb, 2*b*n, n); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "row means", emutest.Download(t, mb), wantMean)
		if err := gpulayers.GraphPairFeatures(dev, fb, xb, b, n); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "graph pair features", emutest.Download(t, fb), wantF)
	}
}

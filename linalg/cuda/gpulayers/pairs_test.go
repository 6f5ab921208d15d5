package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/pairs"
)

func TestPairFeatures(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(33, 34))
	for _, s := range [][2]int{{1, 1}, {3, 5}, {2, 20}} {
		b, n := s[0], s[1]
		x := emutest.Normals(rng, b*4*n, 1)
		want := make([]float32, b*n*n*pairs.MatchingWidth)
		pairs.Matching(want, x, b, n)
		dst := emutest.Zeros(t, len(want))
		if err := gpulayers.PairFeatures(dev, dst, emutest.Upload(t, x), b, n, gpulayers.TwoPointSets); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "matching features", emutest.Download(t, dst), want)

		x = x[:b*2*n]
		pairs.Tour(want, x, b, n)
		if err := gpulayers.PairFeatures(dev, dst, emutest.Upload(t, x), b, n, gpulayers.OnePointSet); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "tour features", emutest.Download(t, dst), want)
	}
	if err := gpulayers.PairFeatures(dev, emutest.Zeros(t, 6), emutest.Zeros(t, 1), 1, 1, gpulayers.OnePointSet); err == nil {
		t.Error("PairFeatures from a short x: no error")
	}
}

func TestBarDiagonal(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(35, 36))
	const b, n, bar = 3, 7, -1e4
	x, dy := emutest.Normals(rng, b*n*n, 1), emutest.Normals(rng, b*n*n, 1)
	g := G.NewGraph()
	xn := tensor3(g, "x", x, b, n, n)
	y, err := layers.BarDiagonal(xn, bar)
	if err != nil {
		t.Fatal(err)
	}
	runGraph(t, g, G.Must(G.Sum(G.Must(G.HadamardProd(y, tensor3(g, "dy", dy, b, n, n))))), xn)

	yb := emutest.Zeros(t, b*n*n)
	if err := gpulayers.BarDiagonal(dev, yb, emutest.Upload(t, x), b, n, bar); err != nil {
		t.Fatal(err)
	}
	emutest.SameBits(t, "y", emutest.Download(t, yb), y.Value().Data().([]float32))
	dyb := emutest.Upload(t, dy)
	if err := gpulayers.BarDiagonal(dev, dyb, dyb, b, n, 0); err != nil {
		t.Fatal(err)
	}
	emutest.SameBits(t, "dx", emutest.Download(t, dyb), grad(t, xn))
}

// TestBilinearQ checks agent/nets' bilinear critic, Q_i = sum(A_i * G) for two actions sharing
// G, and its gradients (dG summed over the actions, and dA).
func TestBilinearQ(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(37, 38))
	for _, s := range [][2]int{{1, 1}, {4, 5}, {2, 20}} {
		b, n := s[0], s[1]
		nn := n * n
		gv, a0, a1 := emutest.Normals(rng, b*nn, 1), emutest.Normals(rng, b*nn, 1), emutest.Normals(rng, b*nn, 1)
		dq0, dq1 := emutest.Normals(rng, b, 1), emutest.Normals(rng, b, 1)
		g := G.NewGraph()
		gn, a0n, a1n := tensor3(g, "g", gv, b, n, n), tensor3(g, "a0", a0, b, n, n), tensor3(g, "a1", a1, b, n, n)
		q0 := G.Must(G.Sum(G.Must(G.HadamardProd(a0n, gn)), 1, 2))
		q1 := G.Must(G.Sum(G.Must(G.HadamardProd(a1n, gn)), 1, 2))
		loss := G.Must(G.Add(G.Must(G.Sum(G.Must(G.HadamardProd(q0, vec(g, "dq0", dq0))))),
			G.Must(G.Sum(G.Must(G.HadamardProd(q1, vec(g, "dq1", dq1)))))))
		runGraph(t, g, loss, gn, a0n)

		gb, a0b, a1b := emutest.Upload(t, gv), emutest.Upload(t, a0), emutest.Upload(t, a1)
		q0b, q1b := emutest.Zeros(t, b), emutest.Zeros(t, b)
		if err := gpulayers.BilinearQ(dev, q0b, a0b, gb, b, nn); err != nil {
			t.Fatal(err)
		}
		if err := gpulayers.BilinearQ(dev, q1b, a1b, gb, b, nn); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "q0", emutest.Download(t, q0b), q0.Value().Data().([]float32), 1e-6)
		emutest.Near(t, "q1", emutest.Download(t, q1b), q1.Value().Data().([]float32), 1e-6)

		dqb0, dqb1 := emutest.Upload(t, dq0), emutest.Upload(t, dq1)
		dg, da0 := emutest.Upload(t, emutest.Normals(rng, b*nn, 1)), emutest.Zeros(t, b*nn) // dg's old contents must not count
		for _, err := range []error{
			gpulayers.ScaleRowsAdd(dev, dg, dqb0, a0b, b, nn, 0),
			gpulayers.ScaleRowsAdd(dev, dg, dqb1, a1b, b, nn, 1),
			gpulayers.ScaleRowsAdd(dev, da0, dqb0, gb, b, nn, 0),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
		emutest.Near(t, "dG", emutest.Download(t, dg), grad(t, gn), 1e-6)
		emutest.Near(t, "dA0", emutest.Download(t, da0), grad(t, a0n), 1e-6)
	}
}

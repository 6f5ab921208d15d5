package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/pairops"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/pairs"
)

func TestCentreItems(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(45, 46))
	for _, s := range [][3]int{{1, 1, 1}, {3, 7, 2}, {2, 50, 3}} {
		b, n, w := s[0], s[1], s[2]
		x := emutest.Normals(rng, b*n*w, 1)
		g := G.NewGraph()
		y, err := pairops.Centre(tensor3(g, "x", x, b, n, w))
		if err != nil {
			t.Fatal(err)
		}
		vm := G.NewTapeMachine(g)
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		vm.Close()
		xb := emutest.Upload(t, x)
		if err := gpulayers.CentreItems(dev, xb, xb, b, n, w); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "centred", emutest.Download(t, xb), y.Value().Data().([]float32))
	}
}

func TestSortValuesAndFeatures(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(47, 48))
	for _, s := range [][2]int{{1, 1}, {3, 7}, {2, 40}} {
		b, n := s[0], s[1]
		x := make([]float32, b*n)
		for i := range x {
			x[i] = float32(rng.IntN(3 * n))
		}
		want, wantF := make([]float32, b*n), make([]float32, b*n*n*pairs.SortWidth)
		pairs.SortValues(want, x, b, n)
		pairs.Sort(wantF, x, b, n)
		v, f := emutest.Zeros(t, b*n), emutest.Zeros(t, len(wantF))
		if err := gpulayers.SortValues(dev, v, emutest.Upload(t, x), b, n); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "values", emutest.Download(t, v), want)
		if err := gpulayers.PairFeaturesSort(dev, f, v, b, n); err != nil {
			t.Fatal(err)
		}
		emutest.SameBits(t, "sort features", emutest.Download(t, f), wantF)
	}
}

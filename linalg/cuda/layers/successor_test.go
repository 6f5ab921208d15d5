package layers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	oplayers "spg-tui/agent/ops/layers"
	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/layers"
	"spg-tui/linalg/pairs"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

// TestSuccessorActor runs SPG+Successor's actor (agent/nets/successor.go: the pair MLP over
// pairs.Tour's features, three Dense layers, the diagonal barred, Sinkhorn) forward and
// backward through the layer drivers on the emulator and compares M and every parameter's
// gradient with the CPU graph's, the loss being sum(M * dM).
func TestSuccessorActor(t *testing.T) {
	dev := emutest.Device(t)
	const b, n, hid, iters = 3, 7, 8, 5
	const tau = 0.5
	arch, err := nets.New(run.Spec{Config: run.Config{Model: "spg-successor", Task: envs.TaskTSP, N: n, Hidden: hid}, Facts: envs.MustFacts(envs.TaskTSP)})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(39, 40))
	params := nets.NewParams(arch.ActorSpecs(), tensor.Float32, rand.New(rand.NewPCG(41, 42)))
	shape := arch.StateShape(b)
	x, dm := make([]float32, b*n*2), emutest.Normals(rng, b*n*n, 1)
	for i := range x {
		x[i] = rng.Float32()
	}

	g := G.NewGraph()
	nodes, list := params.Nodes(g, "")
	xn := tensor3(g, "x", x, shape[0], shape[1], shape[2])
	m := cpuPolicy(t, arch, xn, nodes, tau, iters)
	runGraph(t, g, G.Must(G.Sum(G.Must(G.HadamardProd(m, tensor3(g, "dm", dm, b, n, n))))), list...)

	p, dp := map[string]cuda.Buf{}, map[string]cuda.Buf{}
	for i, s := range params.Specs {
		p[s.Name] = emutest.Upload(t, params.Vals[i].Float32s())
		dp[s.Name] = emutest.Zeros(t, params.Vals[i].Shape().TotalSize())
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	const w = pairs.TourWidth
	const leaky = oplayers.LeakySlope
	rows := b * n * n
	f, y1, y2, y3 := emutest.Zeros(t, rows*w), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows)
	s, mb, saved := emutest.Zeros(t, rows), emutest.Zeros(t, rows), emutest.Zeros(t, sinkhorn.SavedLen(b, n, iters))
	check(layers.PairFeatures(dev, f, emutest.Upload(t, x), b, n, layers.OnePointSet))
	check(layers.DenseForward(dev, y1, f, p["p1.W"], p["p1.b"], rows, w, hid, leaky))
	check(layers.DenseForward(dev, y2, y1, p["p2.W"], p["p2.b"], rows, hid, hid, leaky))
	check(layers.DenseForward(dev, y3, y2, p["p3.W"], p["p3.b"], rows, hid, 1, 1))
	check(layers.BarDiagonal(dev, s, y3, b, n, nets.SelfLoopScore))
	check(layers.SinkhornForward(dev, mb, s, saved, b, n, tau, iters))
	emutest.Near(t, "M", emutest.Download(t, mb), m.Value().Data().([]float32), 1e-5)

	ds, dy2, dy1 := emutest.Zeros(t, rows), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows*hid)
	check(layers.SinkhornBackward(dev, ds, emutest.Upload(t, dm), saved, b, n, tau, iters))
	check(layers.BarDiagonal(dev, ds, ds, b, n, 0))
	ones := onesBuf(t, rows)
	check(layers.DenseBackward(dev, layers.DenseGrads{DX: dy2, DW: dp["p3.W"], DB: dp["p3.b"]}, ds, ds, y2, p["p3.W"], y3, ones, rows, hid, 1, 1))
	check(layers.DenseBackward(dev, layers.DenseGrads{DX: dy1, DW: dp["p2.W"], DB: dp["p2.b"]}, dy2, dy2, y1, p["p2.W"], y2, ones, rows, hid, hid, leaky))
	check(layers.DenseBackward(dev, layers.DenseGrads{DW: dp["p1.W"], DB: dp["p1.b"]}, dy1, dy1, f, p["p1.W"], y1, ones, rows, w, hid, leaky))
	for i, s := range params.Specs {
		emutest.Near(t, "d"+s.Name, emutest.Download(t, dp[s.Name]), grad(t, list[i]), 1e-4)
	}
}

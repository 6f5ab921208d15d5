package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops/layers"
	"spg-tui/envs"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/pairs"
	"spg-tui/linalg/sinkhorn"
)

// TestSuccessorActor runs SPG+Successor's actor (agent/nets/successor.go: the pair MLP over
// pairs.Tour's features, three Dense layers, the diagonal barred, Sinkhorn) forward and
// backward through the layer drivers on the emulator and compares M and every parameter's
// gradient with the CPU graph's, the loss being sum(M * dM).
func TestSuccessorActor(t *testing.T) {
	dev := emutest.Device(t)
	const b, n, hid, iters = 3, 7, 8, 5
	const tau = 0.5
	arch := testArch(t, "spg-successor", envs.TaskTSP, n, hid)
	rng := rand.New(rand.NewPCG(39, 40))
	params := nets.NewParams(arch.ActorSpecs(), tensor.Float32, rand.New(rand.NewPCG(41, 42)))
	x, dm := make([]float32, b*n*2), emutest.Normals(rng, b*n*n, 1)
	for i := range x {
		x[i] = rng.Float32()
	}
	ref := newActorRef(t, arch, params, x, dm, b, tau, iters)
	p, dp := ref.p, ref.dp
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	const w = pairs.TourWidth
	const leaky = layers.LeakySlope
	rows := b * n * n
	f, y1, y2, y3 := emutest.Zeros(t, rows*w), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows)
	s, mb, saved := emutest.Zeros(t, rows), emutest.Zeros(t, rows), emutest.Zeros(t, sinkhorn.SavedLen(b, n, iters))
	check(gpulayers.PairFeatures(dev, f, emutest.Upload(t, x), b, n, gpulayers.OnePointSet))
	check(gpulayers.DenseForward(dev, y1, f, p["p1.W"], p["p1.b"], rows, w, hid, leaky))
	check(gpulayers.DenseForward(dev, y2, y1, p["p2.W"], p["p2.b"], rows, hid, hid, leaky))
	check(gpulayers.DenseForward(dev, y3, y2, p["p3.W"], p["p3.b"], rows, hid, 1, 1))
	check(gpulayers.BarDiagonal(dev, s, y3, b, n, nets.SelfLoopScore))
	check(gpulayers.SinkhornForward(dev, mb, s, saved, b, n, tau, iters))
	ref.checkM(t, mb)

	ds, dy2, dy1 := emutest.Zeros(t, rows), emutest.Zeros(t, rows*hid), emutest.Zeros(t, rows*hid)
	check(gpulayers.SinkhornBackward(dev, ds, emutest.Upload(t, dm), saved, b, n, tau, iters))
	check(gpulayers.BarDiagonal(dev, ds, ds, b, n, 0))
	ones := onesBuf(t, rows)
	check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dy2, DW: dp["p3.W"], DB: dp["p3.b"]}, ds, ds, y2, p["p3.W"], y3, ones, rows, hid, 1, 1))
	check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dy1, DW: dp["p2.W"], DB: dp["p2.b"]}, dy2, dy2, y1, p["p2.W"], y2, ones, rows, hid, hid, leaky))
	check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DW: dp["p1.W"], DB: dp["p1.b"]}, dy1, dy1, f, p["p1.W"], y1, ones, rows, w, hid, leaky))
	ref.checkGrads(t)
}

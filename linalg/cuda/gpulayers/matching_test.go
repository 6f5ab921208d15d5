package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops/layers"
	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/gru"
	"spg-tui/linalg/sinkhorn"
)

// TestMatchingActor runs SPG+Matching's actor (agent/nets/matching.go: E = σ(B We + be)
// σ(A We + be)^T, h = GRU(E), M = Sinkhorn(h Wa + ba)) forward and backward through the layer
// drivers on the emulator and compares M and every parameter's gradient with the CPU graph's,
// the loss being sum(M * dM) for a random dM.
func TestMatchingActor(t *testing.T) {
	dev := emutest.Device(t)
	const b, n, hid, iters = 3, 6, 8, 5
	const tau = 0.5
	arch := testArch(t, "spg-matching", envs.TaskMWM, n, hid)
	rng := rand.New(rand.NewPCG(25, 26))
	params := nets.NewParams(arch.ActorSpecs(), tensor.Float32, rand.New(rand.NewPCG(27, 28)))
	k := arch.StateShape(b)[2]
	x, dm := emutest.Normals(rng, b*2*n*k, 1), emutest.Normals(rng, b*n*n, 1)
	ref := newActorRef(t, arch, params, x, dm, b, tau, iters)
	p, dp := ref.p, ref.dp

	d := gru.Dims{B: b, T: n, I: n, H: hid}
	xb := emutest.Upload(t, x)
	e1, e, h := emutest.Zeros(t, b*2*n*hid), emutest.Zeros(t, b*n*n), emutest.Zeros(t, b*n*hid)
	y, mb := emutest.Zeros(t, b*n*n), emutest.Zeros(t, b*n*n)
	gruSaved, work := emutest.Zeros(t, gru.SavedLen(d)), emutest.Zeros(t, gpulayers.GRUWorkLen(d))
	skSaved := emutest.Zeros(t, sinkhorn.SavedLen(b, n, iters))
	none := cuda.Buf{}
	steps := []func() error{
		func() error {
			return gpulayers.DenseForward(dev, e1, xb, p["emb.W"], p["emb.b"], b*2*n, k, hid, layers.LeakySlope)
		},
		func() error { return gpulayers.PairOuterForward(dev, e, e1, b, n, hid) },
		func() error {
			return gpulayers.GRUForward(dev, d, h, e, none, p["gru.Wih"], p["gru.Whh"], p["gru.bih"], p["gru.bhh"], gruSaved, work, false)
		},
		func() error { return gpulayers.DenseForward(dev, y, h, p["out.W"], p["out.b"], b*n, hid, n, 1) },
		func() error { return gpulayers.SinkhornForward(dev, mb, y, skSaved, b, n, tau, iters) },
	}
	dmb, dy, dh, de, de1 := emutest.Upload(t, dm), emutest.Zeros(t, b*n*n), emutest.Zeros(t, b*n*hid), emutest.Zeros(t, b*n*n), emutest.Zeros(t, b*2*n*hid)
	steps = append(steps,
		func() error { return gpulayers.SinkhornBackward(dev, dy, dmb, skSaved, b, n, tau, iters) },
		func() error {
			return gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dh, DW: dp["out.W"], DB: dp["out.b"]}, dy, dy, h, p["out.W"], y, onesBuf(t, b*n), b*n, hid, n, 1)
		},
		func() error {
			return gpulayers.GRUBackward(dev, d, de, none, dp["gru.Wih"], dp["gru.Whh"], dp["gru.bih"], dp["gru.bhh"],
				dh, e, p["gru.Wih"], p["gru.Whh"], gruSaved, work, false)
		},
		func() error { return gpulayers.PairOuterBackward(dev, de1, de, e1, b, n, hid) },
		func() error {
			return gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DW: dp["emb.W"], DB: dp["emb.b"]}, de1, de1, xb, p["emb.W"], e1, onesBuf(t, b*2*n), b*2*n, k, hid, layers.LeakySlope)
		},
	)
	for _, s := range steps {
		if err := s(); err != nil {
			t.Fatal(err)
		}
	}
	ref.checkM(t, mb)
	ref.checkGrads(t)
}

package gpulayers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/layers"
	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/gru"
)

// TestMatchingCriticLoss runs SPG+Matching's critic loss (agent/learn/losses.go over
// agent/nets/matching.go's critic: Yc = σ(BN(h Wc + bc)), per action Ed = σ(BN(A Wd + bd)),
// Yf = σ(BN((Yc + Ed) Wf + bf)), Q = (Yf Wg1)^T Wg2, loss = MSE(r, Q(P)) + w MSE(stop(Q(P)),
// Q(M))) forward and backward through the layer drivers on the emulator, and compares the loss
// and every critic parameter's gradient with the CPU graph's. The two actions share the trunk
// and Yc, so their gradients are summed, as the graph does.
func TestMatchingCriticLoss(t *testing.T) {
	dev := emutest.Device(t)
	const b, n, hid = 4, 5, 6
	const w = 1
	arch := testArch(t, "spg-matching", envs.TaskMWM, n, hid)
	rng := rand.New(rand.NewPCG(29, 30))
	params := nets.NewParams(arch.CriticSpecs(), tensor.Float32, rand.New(rand.NewPCG(31, 32)))
	for i, s := range params.Specs { // batch norm's gamma and beta away from 1 and 0
		if strings.HasSuffix(s.Name, ".gamma") || strings.HasSuffix(s.Name, ".beta") {
			copy(params.Vals[i].Float32s(), emutest.Normals(rng, params.Vals[i].Shape().TotalSize(), 0.5))
		}
	}
	k := arch.StateShape(b)[2]
	x, r := emutest.Normals(rng, b*2*n*k, 1), emutest.Normals(rng, b, 1)
	acts := [][]float32{make([]float32, b*n*n), emutest.Normals(rng, b*n*n, 0.3)}
	for bi := range b { // P: a permutation per instance
		for i, j := range rng.Perm(n) {
			acts[0][(bi*n+i)*n+j] = 1
		}
	}

	// The CPU graph, as agent/learn/losses.go builds it.
	g := G.NewGraph()
	nodes, list := params.Nodes(g, "")
	xn := tensor3(g, "x", x, b, 2*n, k)
	qs, err := arch.Critic(&nets.CriticCtx{P: nodes}, xn, []*G.Node{tensor3(g, "p", acts[0], b, n, n), tensor3(g, "m", acts[1], b, n, n)})
	if err != nil {
		t.Fatal(err)
	}
	target, err := ops.StopGradient(qs[0])
	if err != nil {
		t.Fatal(err)
	}
	wn := G.NewScalar(g, tensor.Float32, G.WithName("w"), G.WithValue(float32(w)))
	loss := G.Must(G.Add(mse(qs[0], vec(g, "r", r)), G.Must(G.Mul(wn, mse(qs[1], target)))))
	runGraph(t, g, loss, list...)

	// The same on the device.
	p, dp := map[string]cuda.Buf{}, map[string]cuda.Buf{}
	for i, s := range params.Specs {
		p[s.Name] = emutest.Upload(t, params.Vals[i].Float32s())
		dp[s.Name] = emutest.Zeros(t, params.Vals[i].Shape().TotalSize())
	}
	z := func(n int) cuda.Buf { return emutest.Zeros(t, n) }
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// acc adds a gradient computed into tmp to parameter name's.
	acc := func(name string, tmp cuda.Buf) { check(gpulayers.Add(dev, dp[name], dp[name], tmp)) }
	none := cuda.Buf{}
	const leaky = layers.LeakySlope
	bn, bnh := b*n, b*n*hid

	// Trunk and Yc.
	d := gru.Dims{B: b, T: n, I: n, H: hid}
	xb := emutest.Upload(t, x)
	e1, e, h := z(2*bnh), z(b*n*n), z(bnh)
	gruSaved, work := z(gru.SavedLen(d)), z(gpulayers.GRUWorkLen(d))
	check(gpulayers.DenseForward(dev, e1, xb, p["emb.W"], p["emb.b"], 2*bn, k, hid, leaky))
	check(gpulayers.PairOuterForward(dev, e, e1, b, n, hid))
	check(gpulayers.GRUForward(dev, d, h, e, none, p["gru.Wih"], p["gru.Whh"], p["gru.bih"], p["gru.bhh"], gruSaved, work, false))
	ycLin, yc, cMean, cInv := z(bnh), z(bnh), z(n), z(n)
	check(gpulayers.DenseForward(dev, ycLin, h, p["c.W"], p["c.b"], bn, hid, hid, 1))
	check(gpulayers.BatchNormForward(dev, yc, ycLin, p["c.gamma"], p["c.beta"], cMean, cInv, b, n, hid, leaky))

	// Per action.
	type branch struct{ a, edLin, ed, dMean, dInv, s, yfLin, yf, fMean, fInv, v, q cuda.Buf }
	br := make([]branch, 2)
	for i := range br {
		c := branch{a: emutest.Upload(t, acts[i]), edLin: z(bnh), ed: z(bnh), dMean: z(n), dInv: z(n), s: z(bnh),
			yfLin: z(b * n * n), yf: z(b * n * n), fMean: z(n), fInv: z(n), v: z(bn), q: z(b)}
		check(gpulayers.DenseForward(dev, c.edLin, c.a, p["d.W"], p["d.b"], bn, n, hid, 1))
		check(gpulayers.BatchNormForward(dev, c.ed, c.edLin, p["d.gamma"], p["d.beta"], c.dMean, c.dInv, b, n, hid, leaky))
		check(gpulayers.Add(dev, c.s, yc, c.ed))
		check(gpulayers.DenseForward(dev, c.yfLin, c.s, p["f.W"], p["f.b"], bn, hid, n, 1))
		check(gpulayers.BatchNormForward(dev, c.yf, c.yfLin, p["f.gamma"], p["f.beta"], c.fMean, c.fInv, b, n, n, leaky))
		check(gpulayers.DenseForward(dev, c.v, c.yf, p["g1.W"], none, bn, n, 1, 1))
		check(gpulayers.DenseForward(dev, c.q, c.v, p["g2.W"], none, b, n, 1, 1))
		br[i] = c
	}
	out, dq0, dq1 := z(3), z(b), z(b)
	check(gpulayers.CriticLoss(dev, out, dq0, dq1, br[0].q, br[1].q, emutest.Upload(t, r), b, w))
	emutest.Near(t, "loss", emutest.Download(t, out)[:1], []float32{loss.Value().Data().(float32)}, 1e-5)

	// Backward, action by action, summing the shared parameters' gradients.
	dyc := z(bnh)
	for i, dq := range []cuda.Buf{dq0, dq1} {
		c := br[i]
		dv, dyf, dyfLin, ds, dedLin := z(bn), z(b*n*n), z(b*n*n), z(bnh), z(bnh)
		tmp := func(name string) cuda.Buf { return z(dp[name].N) }
		tg2, tg1 := tmp("g2.W"), tmp("g1.W")
		check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dv, DW: tg2}, dq, dq, c.v, p["g2.W"], c.q, none, b, n, 1, 1))
		check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dyf, DW: tg1}, dv, dv, c.yf, p["g1.W"], c.v, none, bn, n, 1, 1))
		acc("g2.W", tg2)
		acc("g1.W", tg1)
		tfg, tfb, tfw, tfbias := tmp("f.gamma"), tmp("f.beta"), tmp("f.W"), tmp("f.b")
		check(gpulayers.BatchNormBackward(dev, dyfLin, tfg, tfb, dyf, c.yfLin, c.yf, p["f.gamma"], c.fMean, c.fInv, b, n, n, leaky))
		check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: ds, DW: tfw, DB: tfbias}, dyfLin, dyfLin, c.s, p["f.W"], c.yfLin, onesBuf(t, bn), bn, hid, n, 1))
		acc("f.gamma", tfg)
		acc("f.beta", tfb)
		acc("f.W", tfw)
		acc("f.b", tfbias)
		tdg, tdb, tdw, tdbias := tmp("d.gamma"), tmp("d.beta"), tmp("d.W"), tmp("d.b")
		check(gpulayers.BatchNormBackward(dev, dedLin, tdg, tdb, ds, c.edLin, c.ed, p["d.gamma"], c.dMean, c.dInv, b, n, hid, leaky))
		check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DW: tdw, DB: tdbias}, dedLin, dedLin, c.a, p["d.W"], c.edLin, onesBuf(t, bn), bn, n, hid, 1))
		acc("d.gamma", tdg)
		acc("d.beta", tdb)
		acc("d.W", tdw)
		acc("d.b", tdbias)
		check(gpulayers.Add(dev, dyc, dyc, ds))
	}
	dycLin, dh, de, de1 := z(bnh), z(bnh), z(b*n*n), z(2*bnh)
	check(gpulayers.BatchNormBackward(dev, dycLin, dp["c.gamma"], dp["c.beta"], dyc, ycLin, yc, p["c.gamma"], cMean, cInv, b, n, hid, leaky))
	check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DX: dh, DW: dp["c.W"], DB: dp["c.b"]}, dycLin, dycLin, h, p["c.W"], ycLin, onesBuf(t, bn), bn, hid, hid, 1))
	check(gpulayers.GRUBackward(dev, d, de, none, dp["gru.Wih"], dp["gru.Whh"], dp["gru.bih"], dp["gru.bhh"],
		dh, e, p["gru.Wih"], p["gru.Whh"], gruSaved, work, false))
	check(gpulayers.PairOuterBackward(dev, de1, de, e1, b, n, hid))
	check(gpulayers.DenseBackward(dev, gpulayers.DenseGrads{DW: dp["emb.W"], DB: dp["emb.b"]}, de1, de1, xb, p["emb.W"], e1, onesBuf(t, 2*bn), 2*bn, k, hid, leaky))

	for i, s := range params.Specs {
		emutest.Near(t, "d"+s.Name, emutest.Download(t, dp[s.Name]), grad(t, list[i]), 1e-4)
	}
}

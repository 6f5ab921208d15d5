package gpunet

import (
	"fmt"
	"math"

	"spg-tui/agent/ops/pairops"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/layers"
	"spg-tui/linalg/sinkhorn"
)

// GMDims are a GM's sizes and variant: batch B, size N, hidden width H, the Sinkhorn
// iterations its saved buffers are sized for (at most), and SPG+GM's fixed constants (nets.GM).
type GMDims struct {
	B, N, H, MaxIters int
	// Rounds message-passing rounds over node inputs of closed walks up to WalkLen.
	Rounds, WalkLen int
	// Consensus rounds of Sinkhorn at ConsensusTau for ConsensusIters iterations.
	Consensus, ConsensusIters int
	ConsensusTau              float32
	// LogStep, above 0, reads a consensus step's parameter theta as exp(LogStep theta)
	// (spg-gm2, spg-gm3); Spectral adds spec.W times the spectral similarity to the scores
	// (spg-gm3).
	LogStep  float64
	Spectral bool
	// TargetRate, above 0, gives the actor's update a slow target critic moved at that rate.
	TargetRate float64
}

// GM is SPG+GM on a device (nets' graphMatching): node embeddings by message passing over
// both graphs, scores of G2's nodes by G1's, consensus rounds, Sinkhorn; the critic Q(s, A) =
// <A W, A2 A> with W a pair MLP over G1's pairs, zero on the diagonal. A state's closed-walk
// counts and spectral similarity depend on it alone: they are computed on the host by the CPU
// ops' kernels (pairops.ClosedWalksOf, SpectralSimilarityOf) and uploaded. Every product is
// batched over the graphs, so the launches of a step do not depend on N.
type GM struct {
	networks
	d GMDims

	x, means   cuda.Buf // the states (B x 2N x N: 2B graphs) and their row-mean adjacencies
	inputs     cuda.Buf // the first round's node inputs (2BN x WalkLen): degree, then walks
	inHost     []float32
	walks      []float32 // the walk counts on the host (2BN x WalkLen-1)
	sim        cuda.Buf  // the spectral similarity (B N N), spg-gm3
	simHost    []float32
	ins, outs  []cuda.Buf // per round: [h, mean h] (2BN x 2 width) and the round's output (2BN x H)
	e          cuda.Buf   // f's output (2BN x H)
	y          cuda.Buf   // the scores, refined in place by the consensus rounds
	s, t       cuda.Buf   // a round's soft correspondence and mean2 S (and their gradients)
	u          []cuda.Buf // per consensus round: mean2 S mean1^T
	consSaved  []cuda.Buf // per consensus round: what its Sinkhorn's backward reads
	m, skSaved cuda.Buf
	// The scalar parameters (the consensus steps' thetas, then spec.W) sit together in the
	// actor's buffer from scalarAt: read to the host once a forward pass, their gradients
	// written back from dScalars.
	scalarAt int
	scalars  []float32
	steps    []float32
	dScalars cuda.Buf
	dsHost   []float32
	dY, dX   cuda.Buf // the scores' gradient and a Sinkhorn backward's
	dE, dH   cuda.Buf
	dIn      cuda.Buf
	// the critic
	feats, ones cuda.Buf
	crit        mlp
	w           cuda.Buf // W (B N N)
	p, soft     cuda.Buf
	aw, a2a     [2]cuda.Buf // A W and A2 A per action
	q, dq       cuda.Buf
	qHost       []float32
	tmp, dW, dM cuda.Buf
}

// NewGM allocates a GM for d with the parameters of actor and critic specs, all zero until
// uploaded.
func NewGM(dev cuda.Device, d GMDims, actor, critic []Spec) (*GM, error) {
	if d.B < 1 || d.N < 2 || d.H < 1 || d.MaxIters < 1 || d.Rounds < 1 || d.WalkLen < 2 || d.Consensus < 1 || d.ConsensusIters < 1 {
		return nil, fmt.Errorf("gpunet: GM sizes %+v", d)
	}
	w := &GM{d: d}
	if err := w.networks.init(dev, actor, critic); err != nil {
		return nil, err
	}
	if err := w.findScalars(); err != nil {
		w.Close()
		return nil, err
	}
	if d.TargetRate > 0 {
		if err := w.withTarget(critic, d.TargetRate); err != nil {
			w.Close()
			return nil, err
		}
	}
	a := &w.mem
	b, n, h := d.B, d.N, d.H
	rows, nn := 2*b*n, b*n*n
	w.x, w.means = a.get(2*nn), a.get(2*nn)
	w.inputs, w.inHost, w.walks = a.get(rows*d.WalkLen), make([]float32, rows*d.WalkLen), make([]float32, rows*(d.WalkLen-1))
	if d.Spectral {
		w.sim, w.simHost = a.get(nn), make([]float32, nn)
	}
	width := d.WalkLen
	for range d.Rounds {
		w.ins, w.outs = append(w.ins, a.get(rows*2*width)), append(w.outs, a.get(rows*h))
		width = h
	}
	w.e, w.y, w.s, w.t = a.get(rows*h), a.get(nn), a.get(nn), a.get(nn)
	for range d.Consensus {
		w.u, w.consSaved = append(w.u, a.get(nn)), append(w.consSaved, a.get(sinkhorn.SavedLen(b, n, d.ConsensusIters)))
	}
	w.m, w.skSaved = a.get(nn), a.get(sinkhorn.SavedLen(b, n, d.MaxIters))
	w.dScalars, w.dsHost = a.get(len(w.scalars)), make([]float32, len(w.scalars))
	w.dY, w.dX, w.dE, w.dH, w.dIn = a.get(nn), a.get(nn), a.get(rows*h), a.get(rows*h), a.get(rows*2*h)
	w.feats, w.ones, w.crit = a.get(nn*layers.GraphPairWidth), newOnes(a, max(nn, rows)), newMLP(a, nn, h)
	w.w, w.p, w.soft = a.get(nn), a.get(nn), a.get(nn)
	for i := range w.aw {
		w.aw[i], w.a2a[i] = a.get(nn), a.get(nn)
	}
	w.q, w.dq, w.qHost = a.get(2*b), a.get(2*b), make([]float32, 2*b)
	w.tmp, w.dW, w.dM = a.get(nn), a.get(nn), a.get(nn)
	if a.err != nil {
		w.Close()
		return nil, fmt.Errorf("gpunet: allocating SPG+GM's buffers (B %d, N %d): %w", b, n, a.err)
	}
	return w, nil
}

// findScalars checks that the consensus steps (cons1.W ...) and spec.W lie together in the
// actor's buffer, in that order, so that one copy reads them all.
func (w *GM) findScalars() error {
	names := make([]string, w.d.Consensus, w.d.Consensus+1)
	for r := range names {
		names[r] = fmt.Sprintf("cons%d.W", r+1)
	}
	if w.d.Spectral {
		names = append(names, "spec.W")
	}
	w.scalarAt = w.actor.offset[names[0]]
	for i, name := range names {
		if off, ok := w.actor.offset[name]; !ok || off != w.scalarAt+i || w.actor.size[name] != 1 {
			return fmt.Errorf("gpunet: SPG+GM's scalar parameters %v are not one after another", names)
		}
	}
	w.scalars, w.steps = make([]float32, len(names)), make([]float32, w.d.Consensus)
	return nil
}

// features uploads states and computes what depends on them alone: the row-mean adjacencies
// and the critic's pair features on the device, the node inputs (degree over N-1, then the
// closed walks) and the spectral similarity on the host, as the CPU ops compute them.
func (w *GM) features(states []float32) error {
	d := w.d
	b, n := d.B, d.N
	if len(states) != w.x.N {
		return fmt.Errorf("gpunet: %d state floats, want %d", len(states), w.x.N)
	}
	if err := w.dev.Upload(w.x, states); err != nil {
		return err
	}
	if err := layers.RowMean(w.dev, w.means, w.x, 2*b*n, n); err != nil {
		return err
	}
	if err := layers.GraphPairFeatures(w.dev, w.feats, w.x, b, n); err != nil {
		return err
	}
	if err := pairops.ClosedWalksOf(w.walks, states, 2*b, n, d.WalkLen); err != nil {
		return err
	}
	inv, wl := float32(1/float64(n-1)), d.WalkLen
	for r := range 2 * b * n {
		var deg float32
		for _, v := range states[r*n : (r+1)*n] {
			deg += v
		}
		w.inHost[r*wl] = deg * inv
		copy(w.inHost[r*wl+1:(r+1)*wl], w.walks[r*(wl-1):])
	}
	if err := w.dev.Upload(w.inputs, w.inHost); err != nil {
		return err
	}
	if !d.Spectral {
		return nil
	}
	if err := pairops.SpectralSimilarityOf(w.simHost, states, b, n); err != nil {
		return err
	}
	return w.dev.Upload(w.sim, w.simHost)
}

// readSteps reads the scalar parameters of p (the actor) and the consensus steps they give.
func (w *GM) readSteps() error {
	if err := w.dev.Download(w.scalars, w.actor.buf.At(w.scalarAt, len(w.scalars))); err != nil {
		return err
	}
	for r := range w.steps {
		w.steps[r] = w.scalars[r]
		if w.d.LogStep > 0 {
			w.steps[r] = float32(math.Exp(float64(w.scalars[r] * float32(w.d.LogStep))))
		}
	}
	return nil
}

// actorForward computes M for the states whose features are current.
func (w *GM) actorForward(tau float32, iters int) error {
	d, dev := w.d, w.dev
	b, n, h, nn := d.B, d.N, d.H, d.N*d.N
	rows := 2 * b * n
	if iters > d.MaxIters {
		return fmt.Errorf("gpunet: %d Sinkhorn iterations, buffers sized for %d", iters, d.MaxIters)
	}
	if err := w.readSteps(); err != nil {
		return err
	}
	x, width := w.inputs, d.WalkLen
	for r := range d.Rounds {
		in := w.ins[r]
		// [h, mean h], a round's input.
		if err := layers.CopyRows(dev, in, 2*width, x, width, rows, width); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, false, n, width, n, 1, w.means, n, nn, x, width, n*width, 0, from(in, width), 2*width, 2*n*width, 2*b); err != nil {
			return err
		}
		name := fmt.Sprintf("mp%d", r+1)
		if err := denseForward(dev, w.outs[r], in, w.actor.get(name+".W"), w.actor.get(name+".b"), rows, 2*width, h, true); err != nil {
			return err
		}
		x, width = w.outs[r], h
	}
	if err := denseForward(dev, w.e, x, w.actor.get("f.W"), w.actor.get("f.b"), rows, h, h, false); err != nil {
		return err
	}
	if err := layers.PairOuterForward(dev, w.y, w.e, b, n, h); err != nil {
		return err
	}
	if d.Spectral {
		if err := addTo(dev, w.y, w.sim, w.scalars[d.Consensus]); err != nil {
			return err
		}
	}
	for r := range d.Consensus {
		if err := sinkhornForward(dev, w.s, w.y, w.consSaved[r], b, n, d.ConsensusTau, d.ConsensusIters); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, false, n, n, n, 1, from(w.means, nn), n, 2*nn, w.s, n, nn, 0, w.t, n, nn, b); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, true, n, n, n, 1, w.t, n, nn, w.means, n, 2*nn, 0, w.u[r], n, nn, b); err != nil {
			return err
		}
		if err := addTo(dev, w.y, w.u[r], w.steps[r]); err != nil {
			return err
		}
	}
	return sinkhornForward(dev, w.m, w.y, w.skSaved.At(0, sinkhorn.SavedLen(b, n, iters)), b, n, tau, iters)
}

// actorBackward takes w.dM, the loss's gradient with respect to M, back through the actor
// into its gradients (overwritten).
func (w *GM) actorBackward(tau float32, iters int) error {
	d, dev, p, g := w.d, w.dev, w.actor, w.actorGrad
	b, n, h, nn := d.B, d.N, d.H, d.N*d.N
	rows := 2 * b * n
	if err := sinkhornBackward(dev, w.dY, w.dM, w.skSaved.At(0, sinkhorn.SavedLen(b, n, iters)), b, n, tau, iters); err != nil {
		return err
	}
	for r := d.Consensus - 1; r >= 0; r-- {
		// y_r = y_{r-1} + step_r U_r: dstep_r = <dY, U_r>; dU = step_r dY, then through the
		// products (dS = mean2^T dU mean1) and the round's Sinkhorn, added to dY.
		if err := layers.BilinearQ(dev, w.dScalars.At(r, 1), w.dY, w.u[r], 1, b*nn); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, false, n, n, n, w.steps[r], w.dY, n, nn, w.means, n, 2*nn, 0, w.t, n, nn, b); err != nil {
			return err
		}
		if err := dev.SgemmStrided(true, false, n, n, n, 1, from(w.means, nn), n, 2*nn, w.t, n, nn, 0, w.s, n, nn, b); err != nil {
			return err
		}
		if err := sinkhornBackward(dev, w.dX, w.s, w.consSaved[r], b, n, d.ConsensusTau, d.ConsensusIters); err != nil {
			return err
		}
		if err := layers.Add(dev, w.dY, w.dY, w.dX); err != nil {
			return err
		}
	}
	if d.Spectral {
		if err := layers.BilinearQ(dev, w.dScalars.At(d.Consensus, 1), w.dY, w.sim, 1, b*nn); err != nil {
			return err
		}
	}
	if err := layers.PairOuterBackward(dev, w.dE, w.dY, w.e, b, n, h); err != nil {
		return err
	}
	gr := layers.DenseGrads{DX: w.dH, DW: g.get("f.W"), DB: g.get("f.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, w.dE, w.outs[d.Rounds-1], p.get("f.W"), cuda.Buf{}, w.ones, rows, h, h, false); err != nil {
		return err
	}
	for r := d.Rounds - 1; r >= 0; r-- {
		name, width := fmt.Sprintf("mp%d", r+1), h
		if r == 0 {
			width = d.WalkLen
		}
		gr := layers.DenseGrads{DW: g.get(name + ".W"), DB: g.get(name + ".b")}
		if r > 0 { // the first round reads only the data
			gr.DX = w.dIn
		}
		if err := denseBackward(dev, gr, w.dH, w.dH, w.ins[r], p.get(name+".W"), w.outs[r], w.ones, rows, 2*width, h, true); err != nil {
			return err
		}
		if r == 0 {
			break
		}
		// [h, mean h]: dh = the first half + mean^T (the second half).
		if err := layers.CopyRows(dev, w.dH, h, w.dIn, 2*h, rows, h); err != nil {
			return err
		}
		if err := dev.SgemmStrided(true, false, n, h, n, 1, w.means, n, nn, from(w.dIn, h), 2*h, 2*n*h, 1, w.dH, h, n*h, 2*b); err != nil {
			return err
		}
	}
	return w.writeScalarGrads()
}

// writeScalarGrads writes the scalar parameters' gradients from the steps' (dScalars): on
// spg-gm2's log scale, d theta = d step step LogStep.
func (w *GM) writeScalarGrads() error {
	if err := w.dev.Download(w.dsHost, w.dScalars); err != nil {
		return err
	}
	if w.d.LogStep > 0 {
		for r, s := range w.steps {
			w.dsHost[r] = w.dsHost[r] * s * float32(w.d.LogStep)
		}
	}
	return w.dev.Upload(w.actorGrad.buf.At(w.scalarAt, len(w.dsHost)), w.dsHost)
}

func (w *GM) Act(states, out []float32, tau float32, iters int) error {
	if len(out) != w.m.N {
		return fmt.Errorf("gpunet: Act: %d floats of M, want %d", len(out), w.m.N)
	}
	if err := w.features(states); err != nil {
		return err
	}
	if err := w.actorForward(tau, iters); err != nil {
		return err
	}
	return w.dev.Download(out, w.m)
}

// criticQ computes W with the critic's parameters p and Q(s, A) = <A W, A2 A> into w.q for
// each action (Q at acts[i] from w.q's element i B).
func (w *GM) criticQ(p *Flat, acts ...cuda.Buf) error {
	d, dev := w.d, w.dev
	b, n, nn := d.B, d.N, d.N*d.N
	if err := w.crit.forward(dev, p, "q", w.feats, b*nn, layers.GraphPairWidth, d.H); err != nil {
		return err
	}
	if err := layers.BarDiagonal(dev, w.w, w.crit.out, b, n, 0); err != nil {
		return err
	}
	for i, a := range acts {
		if err := dev.SgemmStrided(false, false, n, n, n, 1, a, n, nn, w.w, n, nn, 0, w.aw[i], n, nn, b); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, false, n, n, n, 1, from(w.x, nn), n, 2*nn, a, n, nn, 0, w.a2a[i], n, nn, b); err != nil {
			return err
		}
		if err := layers.BilinearQ(dev, w.q.At(i*b, b), w.aw[i], w.a2a[i], b, nn); err != nil {
			return err
		}
	}
	return nil
}

func (w *GM) CriticGrad(states, p, soft, r []float32, wt float64) (CriticOut, error) {
	var out CriticOut
	d, dev := w.d, w.dev
	b, n, nn := d.B, d.N, d.N*d.N
	if len(r) != b || len(p) != b*nn || len(soft) != b*nn {
		return out, fmt.Errorf("gpunet: CriticGrad: %d rewards, %d and %d action floats for a batch of %d", len(r), len(p), len(soft), b)
	}
	if err := w.features(states); err != nil {
		return out, err
	}
	if err := dev.Upload(w.p, p); err != nil {
		return out, err
	}
	if err := dev.Upload(w.soft, soft); err != nil {
		return out, err
	}
	acts := []cuda.Buf{w.p, w.soft}
	if err := w.criticQ(w.critic, acts...); err != nil {
		return out, err
	}
	q := w.qHost
	if err := dev.Download(q, w.q); err != nil {
		return out, err
	}
	if err := dev.Upload(w.dq, criticLoss(&out, q, r, wt)); err != nil {
		return out, err
	}
	// dW = sum over the actions of dq A^T (A2 A), off the diagonal.
	for i, a := range acts {
		if err := layers.ScaleRowsAdd(dev, w.tmp, w.dq.At(i*b, b), w.a2a[i], b, nn, 0); err != nil {
			return out, err
		}
		if err := dev.SgemmStrided(true, false, n, n, n, 1, a, n, nn, w.tmp, n, nn, float32(i), w.dW, n, nn, b); err != nil {
			return out, err
		}
	}
	if err := layers.BarDiagonal(dev, w.dW, w.dW, b, n, 0); err != nil {
		return out, err
	}
	if err := w.crit.backward(dev, w.critic, w.critGrad, "q", w.feats, w.ones, w.dW, b*nn, layers.GraphPairWidth, d.H); err != nil {
		return out, err
	}
	var err error
	out.GradNorm, err = w.norm(w.critGrad.buf)
	return out, err
}

func (w *GM) ActorGrad(tau float32, iters int) (loss, norm float64, err error) {
	d, dev := w.d, w.dev
	b, n, nn := d.B, d.N, d.N*d.N
	if err := w.actorForward(tau, iters); err != nil {
		return 0, 0, err
	}
	// The critic's W on these states: the critic changed since CriticGrad computed it.
	if err := w.criticQ(w.criticInUse(), w.m); err != nil {
		return 0, 0, err
	}
	q := w.qHost[:b]
	if err := dev.Download(q, w.q.At(0, b)); err != nil {
		return 0, 0, err
	}
	loss = negMean(q)
	// d(-mean <M W, A2 M>)/dM = -((A2 M) W^T + A2^T (M W)) / B.
	scale := float32(-1 / float64(b))
	if err := dev.SgemmStrided(false, true, n, n, n, scale, w.a2a[0], n, nn, w.w, n, nn, 0, w.dM, n, nn, b); err != nil {
		return 0, 0, err
	}
	if err := dev.SgemmStrided(true, false, n, n, n, scale, from(w.x, nn), n, 2*nn, w.aw[0], n, nn, 1, w.dM, n, nn, b); err != nil {
		return 0, 0, err
	}
	if err := w.actorBackward(tau, iters); err != nil {
		return 0, 0, err
	}
	norm, err = w.norm(w.actorGrad.buf)
	return loss, norm, err
}

var _ Net = (*GM)(nil)

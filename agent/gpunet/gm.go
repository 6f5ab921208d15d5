package gpunet

import (
	"fmt"

	"spg-tui/agent/ops/pairops"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
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
	// (spg-gm-logstep, spg-gm-spectral); Spectral adds spec.W times the spectral similarity to the scores
	// (spg-gm-spectral).
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
	sim        cuda.Buf  // the spectral similarity (B N N), spg-gm-spectral
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
	w.feats, w.ones, w.crit = a.get(nn*gpulayers.GraphPairWidth), newOnes(a, max(nn, rows)), newMLP(a, nn, h)
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
	if err := gpulayers.RowMean(w.dev, w.means, w.x, 2*b*n, n); err != nil {
		return err
	}
	if err := gpulayers.GraphPairFeatures(w.dev, w.feats, w.x, b, n); err != nil {
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

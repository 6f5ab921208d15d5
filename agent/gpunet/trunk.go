package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/gru"
)

// trunk is the SPG+Matching trunk of one network, h = GRU(σ(B We + be) σ(A We + be)^T), with
// the buffers of its forward and backward passes over a batch of b states (b, 2n, k).
type trunk struct {
	b, n, h, k int
	// forward: embeddings (b, 2n, h), pair products (b, n, n), GRU outputs (b, n, h)
	e, pairs, out cuda.Buf
	saved, work   cuda.Buf // the GRU's (gru.SavedLen, gruWorkLen)
	// backward: gradients of the pair products and of the embeddings
	dPairs, dE cuda.Buf
	gEmb       cuda.Buf // the embedding's gradient through LeakyReLU
	ones       cuda.Buf // b*2n ones, for bias gradients
}

func (t *trunk) dims() gru.Dims { return gru.Dims{B: t.b, T: t.n, I: t.n, H: t.h} }

// newTrunk allocates a trunk's buffers.
func newTrunk(a *allocator, b, n, h, k int) *trunk {
	t := &trunk{b: b, n: n, h: h, k: k}
	d := t.dims()
	t.e, t.pairs, t.out = a.get(b*2*n*h), a.get(b*n*n), a.get(b*n*h)
	t.saved, t.work = a.get(gru.SavedLen(d)), a.get(gruWorkLen(d))
	t.dPairs, t.dE, t.gEmb = a.get(b*n*n), a.get(b*2*n*h), a.get(b*2*n*h)
	t.ones = newOnes(a, b*2*n)
	return t
}

// forward computes t.out for states x with parameters p (emb.W, emb.b, gru.*).
func (t *trunk) forward(dev cuda.Device, p *Flat, x cuda.Buf) error {
	rows := t.b * 2 * t.n
	if err := denseForward(dev, t.e, x, p.get("emb.W"), p.get("emb.b"), rows, t.k, t.h, true); err != nil {
		return err
	}
	if err := gpulayers.PairOuterForward(dev, t.pairs, t.e, t.b, t.n, t.h); err != nil {
		return err
	}
	return gruForward(dev, t.dims(), t.out, t.pairs, p.get("gru.Wih"), p.get("gru.Whh"), p.get("gru.bih"), p.get("gru.bhh"), t.saved, t.work)
}

// backward takes dOut (b, n, h) back to the gradients of the trunk's parameters in g (which
// it overwrites); x are the states forward saw. dOut is not changed.
func (t *trunk) backward(dev cuda.Device, p, g *Flat, x, dOut cuda.Buf) error {
	err := gruBackward(dev, t.dims(), t.dPairs, g.get("gru.Wih"), g.get("gru.Whh"), g.get("gru.bih"), g.get("gru.bhh"),
		dOut, t.pairs, p.get("gru.Wih"), p.get("gru.Whh"), t.saved, t.work)
	if err != nil {
		return err
	}
	if err := gpulayers.PairOuterBackward(dev, t.dE, t.dPairs, t.e, t.b, t.n, t.h); err != nil {
		return err
	}
	gr := gpulayers.DenseGrads{DW: g.get("emb.W"), DB: g.get("emb.b")}
	return denseBackward(dev, gr, t.gEmb, t.dE, x, p.get("emb.W"), t.e, t.ones, t.b*2*t.n, t.k, t.h, true)
}

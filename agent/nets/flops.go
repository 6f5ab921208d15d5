package nets

import "spg-tui/run"

// StepFLOPs returns the GEMM floating-point operations of one training step of cfg's model as
// agent's SPG learner runs it: the actor's forward pass on cfg.Batch fresh states, the critic's
// update and the actor's update through the critic. Gradients nobody needs (the frozen critic GRU's
// weights in the actor update) are not computed, so not counted; non-GEMM work (gates, Sinkhorn,
// batch norm) is not counted either, except spg-gm-spectral's eigendecompositions, which cost as
// much as the rest of its step (spectralPairFLOPs). It is 0 for the critic-free models (not
// counted) and for a model without an Arch here.
func StepFLOPs(cfg run.Spec) float64 {
	a, err := newArch(cfg.Model, cfg.Facts, cfg.N, cfg.Hidden)
	if err != nil {
		return 0
	}
	c := flopCounter{b: float64(cfg.Batch), n: float64(cfg.N), h: float64(cfg.Hidden), k: float64(cfg.Facts.State.Features(cfg.N))}
	a.countStep(&c)
	return c.total
}

// flopCounter adds up GEMM FLOPs layer by layer.
type flopCounter struct {
	b, n, h, k float64
	total      float64
}

// dense counts a Dense layer over rows rows: forward, and backward for the input (dx) and the
// weights (dw) as requested.
func (c *flopCounter) dense(rows, in, out float64, fwd, dx, dw bool) {
	for _, on := range []bool{fwd, dx, dw} {
		if on {
			c.total += 2 * rows * in * out
		}
	}
}

// gru counts one direction over T = n steps of input width in: the input projection and n-1
// hidden GEMMs forward (the first step starts from zeros); backward n-1 carry GEMMs and the
// input gradient, and the weight gradients when dw is set.
func (c *flopCounter) gru(in float64, fwd, bwd, dw bool) {
	b, t, h := c.b, c.n, c.h
	if fwd {
		c.total += 2*b*t*in*3*h + (t-1)*2*b*h*3*h
	}
	if bwd {
		c.total += (t-1)*2*b*3*h*h + 2*3*h*in*b*t
	}
	if bwd && dw {
		c.total += 2*3*h*h*b*t + 2*3*h*in*b*t
	}
}

// outer counts PairOuter: forward, and two GEMMs backward.
func (c *flopCounter) outer(fwd, bwd bool) {
	f := 2 * c.b * c.n * c.n * c.h
	if fwd {
		c.total += f
	}
	if bwd {
		c.total += 2 * f
	}
}

// countStep counts one training step of SPG+Matching.
func (matching) countStep(c *flopCounter) {
	b, n, h, k := c.b, c.n, c.h, c.k
	// Embedding, outer product and GRU forward (backward with trunkGrad), then the head.
	actor := func(fwd, bwd bool) {
		c.dense(2*b*n, k, h, fwd, false, bwd)
		c.outer(fwd, bwd)
		c.gru(n, fwd, bwd, bwd)
		c.dense(b*n, h, n, fwd, bwd, bwd)
	}
	// The critic's action branch and head; act tells whether the action needs a gradient,
	// train whether the weights do.
	branch := func(bwd, act, train bool) {
		c.dense(b*n, n, h, true, bwd && act, bwd && train)
		c.dense(b*n, h, n, true, bwd, bwd && train)
		c.dense(b*n, n, 1, true, bwd, bwd && train)
		c.dense(b, n, 1, true, bwd, bwd && train)
	}
	actor(true, false) // acting

	// Critic update: the trunk once, two action branches, gradients for all weights.
	c.dense(2*b*n, k, h, true, false, true)
	c.outer(true, true)
	c.gru(n, true, true, true)
	c.dense(b*n, h, h, true, true, true)
	branch(true, false, true)
	branch(true, false, true)

	// Actor update: the actor, the critic's trunk forward only, one branch back to M'.
	actor(true, true)
	c.dense(2*b*n, k, h, true, false, false)
	c.outer(true, false)
	c.gru(n, true, false, false)
	c.dense(b*n, h, h, true, false, false)
	branch(true, true, false)
}

// countStep counts one training step of SPG+Sequential.
func (sequential) countStep(c *flopCounter) {
	b, n, h, k := c.b, c.n, c.h, c.k
	actor := func(bwd bool) {
		c.dense(b*n, k, h, true, false, bwd)
		c.gru(h, true, bwd, bwd)
		c.gru(h, true, bwd, bwd)
		c.dense(b*n, 2*h, n, true, bwd, bwd)
	}
	// The critic after its state embedding; the bidirectional GRU's weight gradients only when
	// the critic trains.
	branch := func(act, train bool) {
		c.dense(b*n, n, h, true, act, train)
		c.dense(b*n, h, h, true, true, train)
		c.gru(h, true, true, train)
		c.gru(h, true, true, train)
		c.dense(b*n, 2*h, h, true, true, train)
		c.dense(b*n, h, 1, true, true, train)
		c.dense(b, n, 1, true, true, train)
	}
	actor(false) // acting

	c.dense(b*n, k, h, true, false, true) // critic update
	branch(false, true)
	branch(false, true)

	actor(true) // actor update
	c.dense(b*n, k, h, true, false, false)
	branch(true, false)
}

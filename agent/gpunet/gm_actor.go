package gpunet

import (
	"fmt"
	"math"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/sinkhorn"
)

// SPG+GM's actor on the device: message passing, scores, consensus rounds and Sinkhorn, forward
// and backward.

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
		if err := gpulayers.CopyRows(dev, in, 2*width, x, width, rows, width); err != nil {
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
	if err := gpulayers.PairOuterForward(dev, w.y, w.e, b, n, h); err != nil {
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
		if err := gpulayers.BilinearQ(dev, w.dScalars.At(r, 1), w.dY, w.u[r], 1, b*nn); err != nil {
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
		if err := gpulayers.Add(dev, w.dY, w.dY, w.dX); err != nil {
			return err
		}
	}
	if d.Spectral {
		if err := gpulayers.BilinearQ(dev, w.dScalars.At(d.Consensus, 1), w.dY, w.sim, 1, b*nn); err != nil {
			return err
		}
	}
	if err := gpulayers.PairOuterBackward(dev, w.dE, w.dY, w.e, b, n, h); err != nil {
		return err
	}
	gr := gpulayers.DenseGrads{DX: w.dH, DW: g.get("f.W"), DB: g.get("f.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, w.dE, w.outs[d.Rounds-1], p.get("f.W"), cuda.Buf{}, w.ones, rows, h, h, false); err != nil {
		return err
	}
	for r := d.Rounds - 1; r >= 0; r-- {
		name, width := fmt.Sprintf("mp%d", r+1), h
		if r == 0 {
			width = d.WalkLen
		}
		gr := gpulayers.DenseGrads{DW: g.get(name + ".W"), DB: g.get(name + ".b")}
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
		if err := gpulayers.CopyRows(dev, w.dH, h, w.dIn, 2*h, rows, h); err != nil {
			return err
		}
		if err := dev.SgemmStrided(true, false, n, h, n, 1, w.means, n, nn, from(w.dIn, h), 2*h, 2*n*h, 1, w.dH, h, n*h, 2*b); err != nil {
			return err
		}
	}
	return w.writeScalarGrads()
}

// writeScalarGrads writes the scalar parameters' gradients from the steps' (dScalars): on
// spg-gm-logstep's log scale, d theta = d step step LogStep.
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

package gpunet

import (
	"fmt"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// SPG+GM's critic on the device, Q(s, A) = <A W, A2 A>, and the two updates' gradients.

// criticQ computes W with the critic's parameters p and Q(s, A) = <A W, A2 A> into w.q for
// each action (Q at acts[i] from w.q's element i B).
func (w *GM) criticQ(p *Flat, acts ...cuda.Buf) error {
	d, dev := w.d, w.dev
	b, n, nn := d.B, d.N, d.N*d.N
	if err := w.crit.forward(dev, p, "q", w.feats, b*nn, gpulayers.GraphPairWidth, d.H); err != nil {
		return err
	}
	if err := gpulayers.BarDiagonal(dev, w.w, w.crit.out, b, n, 0); err != nil {
		return err
	}
	for i, a := range acts {
		if err := dev.SgemmStrided(false, false, n, n, n, 1, a, n, nn, w.w, n, nn, 0, w.aw[i], n, nn, b); err != nil {
			return err
		}
		if err := dev.SgemmStrided(false, false, n, n, n, 1, from(w.x, nn), n, 2*nn, a, n, nn, 0, w.a2a[i], n, nn, b); err != nil {
			return err
		}
		if err := gpulayers.BilinearQ(dev, w.q.At(i*b, b), w.aw[i], w.a2a[i], b, nn); err != nil {
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
		if err := gpulayers.ScaleRowsAdd(dev, w.tmp, w.dq.At(i*b, b), w.a2a[i], b, nn, 0); err != nil {
			return out, err
		}
		if err := dev.SgemmStrided(true, false, n, n, n, 1, a, n, nn, w.tmp, n, nn, float32(i), w.dW, n, nn, b); err != nil {
			return out, err
		}
	}
	if err := gpulayers.BarDiagonal(dev, w.dW, w.dW, b, n, 0); err != nil {
		return out, err
	}
	if err := w.crit.backward(dev, w.critic, w.critGrad, "q", w.feats, w.ones, w.dW, b*nn, gpulayers.GraphPairWidth, d.H); err != nil {
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

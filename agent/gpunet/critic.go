package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// bnLayer is one application of a batch-norm layer followed by LeakyReLU over (b, n, f): its
// input, output and batch statistics.
type bnLayer struct {
	pre, y       cuda.Buf // input (the dense layer's output) and output
	mean, invStd cuda.Buf // per channel (n)
}

func newBN(a *allocator, rows, f, n int) bnLayer {
	return bnLayer{pre: a.get(rows * f), y: a.get(rows * f), mean: a.get(n), invStd: a.get(n)}
}

// forward normalises l.pre with its batch statistics into l.y, then LeakyReLU.
func (l *bnLayer) forward(dev cuda.Device, gamma, beta cuda.Buf, b, n, f int) error {
	return bnForward(dev, l.y, l.pre, gamma, beta, l.mean, l.invStd, b, n, f)
}

// backward takes dy back through LeakyReLU and the normalisation into dPre; dGamma and dBeta
// receive the parameters' gradients (overwritten; zero-length to skip them).
func (l *bnLayer) backward(dev cuda.Device, dPre, dGamma, dBeta, dy, gamma cuda.Buf, b, n, f int) error {
	return bnBackward(dev, dPre, dGamma, dBeta, dy, l.pre, l.y, gamma, l.mean, l.invStd, b, n, f)
}

// critic is the SPG+Matching critic (see nets' matching): its trunk, the state branch
// Yc = σ(BN(h Wc + bc)) and, per action A, Ed = σ(BN(A Wd + bd)), Yf = σ(BN((Yc + Ed) Wf + bf)),
// Q = (Yf Wg1)^T Wg2, with the buffers of two actions (P and M) and of the backward pass.
type critic struct {
	b, n, h int
	trunk   *trunk
	c       bnLayer
	act     [2]criticAction
	// backward scratch
	dq, dv, dyf, dPreF, ds, dPreD, dyc, dPreC, dh cuda.Buf
	colH, colN, tmpN                              cuda.Buf // bias and BN sums of a second use
}

// criticAction are the action-dependent activations of one action.
type criticAction struct {
	d, f bnLayer
	s    cuda.Buf // Yc + Ed (b, n, h)
	v    cuda.Buf // Yf Wg1 (b, n)
	q    cuda.Buf // Q (b)
}

func newCritic(a *allocator, b, n, h, k int) *critic {
	r := b * n
	c := &critic{b: b, n: n, h: h, trunk: newTrunk(a, b, n, h, k), c: newBN(a, r, h, n)}
	for i := range c.act {
		c.act[i] = criticAction{d: newBN(a, r, h, n), f: newBN(a, r, n, n), s: a.get(r * h), v: a.get(r), q: a.get(b)}
	}
	c.dq, c.dv, c.dyf, c.dPreF = a.get(2*b), a.get(r), a.get(r*n), a.get(r*n)
	c.ds, c.dPreD, c.dyc, c.dPreC, c.dh = a.get(r*h), a.get(r*h), a.get(r*h), a.get(r*h), a.get(r*h)
	c.tmpN = a.get(2 * n)
	return c
}

// forward computes Q for each of the first len(acts) actions (b, n, n) of states x, with the
// critic's parameters p and batch statistics.
func (c *critic) forward(dev cuda.Device, p *Flat, x cuda.Buf, acts ...cuda.Buf) error {
	b, n, h, r := c.b, c.n, c.h, c.b*c.n
	if err := c.trunk.forward(dev, p, x); err != nil {
		return err
	}
	if err := denseForward(dev, c.c.pre, c.trunk.out, p.get("c.W"), p.get("c.b"), r, h, h, false); err != nil {
		return err
	}
	if err := c.c.forward(dev, p.get("c.gamma"), p.get("c.beta"), b, n, h); err != nil {
		return err
	}
	for i, a := range acts {
		ca := &c.act[i]
		if err := denseForward(dev, ca.d.pre, a, p.get("d.W"), p.get("d.b"), r, n, h, false); err != nil {
			return err
		}
		if err := ca.d.forward(dev, p.get("d.gamma"), p.get("d.beta"), b, n, h); err != nil {
			return err
		}
		if err := gpulayers.Add(dev, ca.s, c.c.y, ca.d.y); err != nil {
			return err
		}
		if err := denseForward(dev, ca.f.pre, ca.s, p.get("f.W"), p.get("f.b"), r, h, n, false); err != nil {
			return err
		}
		if err := ca.f.forward(dev, p.get("f.gamma"), p.get("f.beta"), b, n, n); err != nil {
			return err
		}
		if err := dev.Sgemm(false, false, r, 1, n, 1, ca.f.y, n, p.get("g1.W"), 1, 0, ca.v, 1); err != nil {
			return err
		}
		if err := dev.Sgemm(false, false, b, 1, n, 1, ca.v, n, p.get("g2.W"), 1, 0, ca.q, 1); err != nil {
			return err
		}
	}
	return nil
}

// actionBackward takes dq (b) of action i back through the action branch: into the critic's
// parameter gradients g (added to what they hold when accumulate, else overwritten; nil for a
// frozen critic), into c.ds (the gradient of Yc + Ed, which is Yc's share) and, where da is
// not empty, into the action's gradient da (b, n, n). a is the action forward saw.
func (c *critic) actionBackward(dev cuda.Device, p, g *Flat, i int, a, dq, da cuda.Buf, accumulate bool) error {
	b, n, h, r := c.b, c.n, c.h, c.b*c.n
	ca := &c.act[i]
	grad := func(name string) cuda.Buf {
		if g == nil {
			return cuda.Buf{}
		}
		return g.get(name)
	}
	beta := float32(0)
	if accumulate {
		beta = 1
	}
	// Q = V Wg2 with V (b, n): dWg2 = V^T dq, dV = dq Wg2^T.
	if g != nil {
		if err := dev.Sgemm(true, false, n, 1, b, 1, ca.v, n, dq, 1, beta, grad("g2.W"), 1); err != nil {
			return err
		}
	}
	if err := dev.Sgemm(false, true, b, n, 1, 1, dq, 1, p.get("g2.W"), 1, 0, c.dv, n); err != nil {
		return err
	}
	// V = Yf Wg1: dWg1 = Yf^T dV, dYf = dV Wg1^T.
	if g != nil {
		if err := dev.Sgemm(true, false, n, 1, r, 1, ca.f.y, n, c.dv, 1, beta, grad("g1.W"), 1); err != nil {
			return err
		}
	}
	if err := dev.Sgemm(false, true, r, n, 1, 1, c.dv, 1, p.get("g1.W"), 1, 0, c.dyf, n); err != nil {
		return err
	}
	if err := c.bnBackward(dev, &ca.f, g, "f", c.dPreF, c.dyf, p.get("f.gamma"), b, n, n, accumulate); err != nil {
		return err
	}
	gr := gpulayers.DenseGrads{DX: c.ds, DW: grad("f.W"), DB: grad("f.b"), Accumulate: accumulate}
	if err := denseBackward(dev, gr, cuda.Buf{}, c.dPreF, ca.s, p.get("f.W"), cuda.Buf{}, c.trunk.ones, r, h, n, false); err != nil {
		return err
	}
	if err := c.bnBackward(dev, &ca.d, g, "d", c.dPreD, c.ds, p.get("d.gamma"), b, n, h, accumulate); err != nil {
		return err
	}
	gr = gpulayers.DenseGrads{DX: da, DW: grad("d.W"), DB: grad("d.b"), Accumulate: accumulate}
	return denseBackward(dev, gr, cuda.Buf{}, c.dPreD, a, p.get("d.W"), cuda.Buf{}, c.trunk.ones, r, n, h, false)
}

// bnBackward is l.backward with the gradients of layer name's gamma and beta overwritten in g,
// added to g's when accumulate, or dropped when g is nil.
func (c *critic) bnBackward(dev cuda.Device, l *bnLayer, g *Flat, name string, dPre, dy, gamma cuda.Buf, b, n, f int, accumulate bool) error {
	dGamma, dBeta := c.tmpN.At(0, n), c.tmpN.At(n, n)
	switch {
	case g == nil: // frozen: skipped
		dGamma, dBeta = cuda.Buf{}, cuda.Buf{}
	case !accumulate:
		dGamma, dBeta = g.get(name+".gamma"), g.get(name+".beta")
	}
	if err := l.backward(dev, dPre, dGamma, dBeta, dy, gamma, b, n, f); err != nil {
		return err
	}
	if g != nil && accumulate {
		if err := addTo(dev, g.get(name+".gamma"), dGamma, 1); err != nil {
			return err
		}
		return addTo(dev, g.get(name+".beta"), dBeta, 1)
	}
	return nil
}

// stateBackward takes dyc, the gradient of Yc gathered from every action, back through the
// state branch and the trunk into g's state-side parameters (overwritten).
func (c *critic) stateBackward(dev cuda.Device, p, g *Flat, x cuda.Buf) error {
	b, n, h, r := c.b, c.n, c.h, c.b*c.n
	if err := c.c.backward(dev, c.dPreC, g.get("c.gamma"), g.get("c.beta"), c.dyc, p.get("c.gamma"), b, n, h); err != nil {
		return err
	}
	gr := gpulayers.DenseGrads{DX: c.dh, DW: g.get("c.W"), DB: g.get("c.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, c.dPreC, c.trunk.out, p.get("c.W"), cuda.Buf{}, c.trunk.ones, r, h, h, false); err != nil {
		return err
	}
	return c.trunk.backward(dev, p, g, x, c.dh)
}

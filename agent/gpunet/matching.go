package gpunet

import (
	"errors"
	"fmt"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/sinkhorn"
)

// Dims are a Matching's sizes: batch B, set size N (states hold 2N points of K features),
// hidden width H, and the Sinkhorn iterations L its saved buffers are sized for (at most).
type Dims struct{ B, N, K, H, MaxIters int }

// Matching is SPG+Matching's actor and critic on a device, with Adam's moments and every
// activation buffer of a training step allocated once. Its methods must not be called
// concurrently.
type Matching struct {
	networks
	d Dims

	// the actor's forward pass
	aTrunk         *trunk
	ya, m, skSaved cuda.Buf
	dM, dYa, dHa   cuda.Buf
	colN           cuda.Buf
	crit           *critic
	x, p, mIn      cuda.Buf // inputs of an update
	qHost          []float32
}

// NewMatching allocates a Matching for d with the parameters of actor and critic specs (in
// nets' order), all zero until Upload.
func NewMatching(dev cuda.Device, d Dims, actor, critic []Spec) (*Matching, error) {
	if d.B < 2 || d.N < 1 || d.K < 1 || d.H < 1 || d.MaxIters < 1 {
		return nil, fmt.Errorf("gpunet: Matching sizes %+v", d)
	}
	m := &Matching{d: d}
	if err := m.networks.init(dev, actor, critic); err != nil {
		return nil, err
	}
	a := &m.mem
	b, n, h, k := d.B, d.N, d.H, d.K
	m.aTrunk = newTrunk(a, b, n, h, k)
	m.ya, m.m, m.skSaved = a.get(b*n*n), a.get(b*n*n), a.get(sinkhorn.SavedLen(b, n, d.MaxIters))
	m.dM, m.dYa, m.dHa = a.get(b*n*n), a.get(b*n*n), a.get(b*n*h)
	m.crit = newCritic(a, b, n, h, k)
	m.x, m.p, m.mIn = a.get(b*2*n*k), a.get(b*n*n), a.get(b*n*n)
	m.qHost = make([]float32, 2*b)
	if a.err != nil {
		m.Close()
		return nil, fmt.Errorf("gpunet: allocating SPG+Matching's buffers (B %d, N %d): %w", b, n, a.err)
	}
	return m, nil
}

// actorForward computes M = Sinkhorn(h Wa + ba) for the states in m.x, saving what the
// backward pass needs.
func (m *Matching) actorForward(tau float32, iters int) error {
	d := m.d
	if iters > d.MaxIters {
		return fmt.Errorf("gpunet: %d Sinkhorn iterations, buffers sized for %d", iters, d.MaxIters)
	}
	if err := m.aTrunk.forward(m.dev, m.actor, m.x); err != nil {
		return err
	}
	if err := denseForward(m.dev, m.ya, m.aTrunk.out, m.actor.get("out.W"), m.actor.get("out.b"), d.B*d.N, d.H, d.N, false); err != nil {
		return err
	}
	return sinkhornForward(m.dev, m.m, m.ya, m.skSaved.At(0, sinkhorn.SavedLen(d.B, d.N, iters)), d.B, d.N, tau, iters)
}

// Act writes the actor's M (B x N x N) for B featurised states.
func (m *Matching) Act(states, out []float32, tau float32, iters int) error {
	d := m.d
	if len(states) != d.B*2*d.N*d.K || len(out) != d.B*d.N*d.N {
		return fmt.Errorf("gpunet: Act: %d state floats and %d of M, want %d and %d", len(states), len(out), d.B*2*d.N*d.K, d.B*d.N*d.N)
	}
	if err := m.dev.Upload(m.x, states); err != nil {
		return err
	}
	if err := m.actorForward(tau, iters); err != nil {
		return err
	}
	return m.dev.Download(out, m.m)
}

// CriticGrad runs the critic on states with the hard and soft actions p and m and rewards r,
// and computes the gradient of hard MSE + w penalty into the critic's gradient buffer. It
// changes no parameter: Apply does, once the caller has checked what it returns.
func (m *Matching) CriticGrad(states, p, soft, r []float32, w float64) (CriticOut, error) {
	var out CriticOut
	d := m.d
	b, n := d.B, d.N
	if len(r) != b || len(p) != b*n*n || len(soft) != b*n*n {
		return out, fmt.Errorf("gpunet: CriticGrad: %d rewards, %d and %d action floats for a batch of %d", len(r), len(p), len(soft), b)
	}
	dev, c := m.dev, m.crit
	for _, u := range []struct {
		dst cuda.Buf
		src []float32
	}{{m.x, states}, {m.p, p}, {m.mIn, soft}} {
		if err := dev.Upload(u.dst, u.src); err != nil {
			return out, err
		}
	}
	if err := c.forward(dev, m.critic, m.x, m.p, m.mIn); err != nil {
		return out, err
	}
	q := m.qHost
	if err := errors.Join(dev.Download(q[:b], c.act[0].q), dev.Download(q[b:], c.act[1].q)); err != nil {
		return out, err
	}
	dq := criticLoss(&out, q, r, w)
	if err := dev.Upload(c.dq, dq); err != nil {
		return out, err
	}
	for i, a := range []cuda.Buf{m.p, m.mIn} {
		if err := c.actionBackward(dev, m.critic, m.critGrad, i, a, c.dq.At(i*b, b), cuda.Buf{}, i > 0); err != nil {
			return out, err
		}
		alpha, dst := float32(1), c.dyc
		if i == 0 {
			if err := launch1(dev, "scale_into", c.ds.N, dst, c.ds, alpha, c.ds.N); err != nil {
				return out, err
			}
		} else if err := addTo(dev, dst, c.ds, alpha); err != nil {
			return out, err
		}
	}
	if err := c.stateBackward(dev, m.critic, m.critGrad, m.x); err != nil {
		return out, err
	}
	var err error
	if out.GradNorm, err = m.norm(m.critGrad.buf); err != nil {
		return out, err
	}
	// PyTorch's order of the batch-norm applications: c, d, f on P, then c, d, f on M.
	for _, u := range []struct {
		name string
		l    *bnLayer
		f    int
	}{{"c", &c.c, d.H}, {"d", &c.act[0].d, d.H}, {"f", &c.act[0].f, n}, {"c", &c.c, d.H}, {"d", &c.act[1].d, d.H}, {"f", &c.act[1].f, n}} {
		st := BNStats{Layer: u.name, Count: b * u.f, Mean: make([]float32, n), InvStd: make([]float32, n)}
		if err := errors.Join(dev.Download(st.Mean, u.l.mean), dev.Download(st.InvStd, u.l.invStd)); err != nil {
			return out, err
		}
		out.BN = append(out.BN, st)
	}
	return out, nil
}

// ActorGrad computes M' = actor(s) for the states of the last CriticGrad and the gradient of
// -mean Q(s, M') (the critic frozen, batch norm with batch statistics) into the actor's
// gradient buffer; it returns the loss and the gradient's norm.
func (m *Matching) ActorGrad(tau float32, iters int) (loss, norm float64, err error) {
	d := m.d
	b, n, h := d.B, d.N, d.H
	dev, c := m.dev, m.crit
	if err := m.actorForward(tau, iters); err != nil {
		return 0, 0, err
	}
	if err := c.forward(dev, m.critic, m.x, m.m); err != nil {
		return 0, 0, err
	}
	q := m.qHost[:b]
	if err := dev.Download(q, c.act[0].q); err != nil {
		return 0, 0, err
	}
	loss = negMean(q)
	dq := make([]float32, b)
	for i := range dq {
		dq[i] = float32(-1 / float64(b))
	}
	if err := dev.Upload(c.dq, dq); err != nil {
		return 0, 0, err
	}
	if err := c.actionBackward(dev, m.critic, nil, 0, m.m, c.dq.At(0, b), m.dM, false); err != nil {
		return 0, 0, err
	}
	if err := sinkhornBackward(dev, m.dYa, m.dM, m.skSaved.At(0, sinkhorn.SavedLen(b, n, iters)), b, n, tau, iters); err != nil {
		return 0, 0, err
	}
	g := m.actorGrad
	gr := gpulayers.DenseGrads{DX: m.dHa, DW: g.get("out.W"), DB: g.get("out.b")}
	if err := denseBackward(dev, gr, cuda.Buf{}, m.dYa, m.aTrunk.out, m.actor.get("out.W"), cuda.Buf{}, m.aTrunk.ones, b*n, h, n, false); err != nil {
		return 0, 0, err
	}
	if err := m.aTrunk.backward(dev, m.actor, g, m.x, m.dHa); err != nil {
		return 0, 0, err
	}
	norm, err = m.norm(g.buf)
	return loss, norm, err
}

var _ Net = (*Matching)(nil)

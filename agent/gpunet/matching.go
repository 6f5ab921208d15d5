package gpunet

import (
	"errors"
	"fmt"
	"math"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/sinkhorn"
)

// Dims are a Matching's sizes: batch B, set size N (states hold 2N points of K features),
// hidden width H, and the Sinkhorn iterations L its saved buffers are sized for (at most).
type Dims struct{ B, N, K, H, MaxIters int }

// Matching is SPG+Matching's actor and critic on a device, with Adam's moments and every
// activation buffer of a training step allocated once. Its methods must not be called
// concurrently.
type Matching struct {
	dev cuda.Device
	d   Dims
	mem allocator

	Actor, Critic       *Flat // parameters
	actorGrad, critGrad *Flat
	actorM, actorV      *Flat // Adam's moments
	critM, critV        *Flat
	AdamSteps           [2]int // Adam's step counts: actor, critic

	// the actor's forward pass
	aTrunk          *trunk
	ya, m, skSaved  cuda.Buf
	dM, dYa, dHa    cuda.Buf
	colN            cuda.Buf
	crit            *critic
	x, p, mIn, part cuda.Buf // inputs of an update, the norm's partial sums
	partHost        []float32
	qHost           []float32
}

// normBlocks is the number of partial sums of a gradient norm.
const normBlocks = 512

// NewMatching allocates a Matching for d with the parameters of actor and critic specs (in
// nets' order), all zero until Upload.
func NewMatching(dev cuda.Device, d Dims, actor, critic []Spec) (*Matching, error) {
	if d.B < 2 || d.N < 1 || d.K < 1 || d.H < 1 || d.MaxIters < 1 {
		return nil, fmt.Errorf("gpunet: Matching sizes %+v", d)
	}
	m := &Matching{dev: dev, d: d, mem: allocator{dev: dev}}
	var err error
	for _, f := range []struct {
		dst   **Flat
		specs []Spec
	}{{&m.Actor, actor}, {&m.actorGrad, actor}, {&m.actorM, actor}, {&m.actorV, actor},
		{&m.Critic, critic}, {&m.critGrad, critic}, {&m.critM, critic}, {&m.critV, critic}} {
		if *f.dst, err = newFlat(dev, f.specs); err != nil {
			m.Close()
			return nil, err
		}
	}
	a := &m.mem
	b, n, h, k := d.B, d.N, d.H, d.K
	m.aTrunk = newTrunk(a, b, n, h, k)
	m.ya, m.m, m.skSaved = a.get(b*n*n), a.get(b*n*n), a.get(sinkhorn.SavedLen(b, n, d.MaxIters))
	m.dM, m.dYa, m.dHa, m.colN = a.get(b*n*n), a.get(b*n*n), a.get(b*n*h), a.get(n)
	m.crit = newCritic(a, b, n, h, k)
	m.x, m.p, m.mIn, m.part = a.get(b*2*n*k), a.get(b*n*n), a.get(b*n*n), a.get(normBlocks)
	m.partHost, m.qHost = make([]float32, normBlocks), make([]float32, 2*b)
	if a.err != nil {
		m.Close()
		return nil, fmt.Errorf("gpunet: allocating SPG+Matching's buffers (B %d, N %d): %w", b, n, a.err)
	}
	return m, nil
}

// Close frees every buffer.
func (m *Matching) Close() {
	for _, f := range []*Flat{m.Actor, m.actorGrad, m.actorM, m.actorV, m.Critic, m.critGrad, m.critM, m.critV} {
		if f != nil {
			f.free(m.dev)
		}
	}
	m.mem.free()
}

// Moments returns the buffers of Adam's moments: actor m, v, then critic m, v.
func (m *Matching) Moments() [4]*Flat { return [4]*Flat{m.actorM, m.actorV, m.critM, m.critV} }

// actorForward computes M = Sinkhorn(h Wa + ba) for the states in m.x, saving what the
// backward pass needs.
func (m *Matching) actorForward(tau float32, iters int) error {
	d := m.d
	if iters > d.MaxIters {
		return fmt.Errorf("gpunet: %d Sinkhorn iterations, buffers sized for %d", iters, d.MaxIters)
	}
	if err := m.aTrunk.forward(m.dev, m.Actor, m.x); err != nil {
		return err
	}
	if err := denseForward(m.dev, m.ya, m.aTrunk.out, m.Actor.get("out.W"), m.Actor.get("out.b"), d.B*d.N, d.H, d.N, false); err != nil {
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

// CriticOut are the numbers of a critic update, read back before anything is changed.
type CriticOut struct {
	Loss, Hard, Penalty float64
	QHard, QSoft        []float32 // per state, valid until the next call
	GradNorm            float64
	// Mean and InvStd are the batch statistics of each batch-norm application in PyTorch's
	// order (c, d, f on P, then c, d, f on M), for the running estimates the caller keeps.
	Mean, InvStd [6][]float32
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
	if err := c.forward(dev, m.Critic, m.x, m.p, m.mIn); err != nil {
		return out, err
	}
	q := m.qHost
	if err := errors.Join(dev.Download(q[:b], c.act[0].q), dev.Download(q[b:], c.act[1].q)); err != nil {
		return out, err
	}
	out.QHard, out.QSoft = q[:b], q[b:]
	// hard = mean (Q(s,P) - r)^2, penalty = mean (Q(s,M) - Q(s,P))^2, the target held fixed.
	dq := make([]float32, 2*b)
	var hard, pen float64
	for i := range b {
		eh, ep := float64(q[i]-r[i]), float64(q[b+i]-q[i])
		hard += eh * eh
		pen += ep * ep
		dq[i] = float32(2 * eh / float64(b))
		dq[b+i] = float32(w * 2 * ep / float64(b))
	}
	out.Hard, out.Penalty = hard/float64(b), pen/float64(b)
	out.Loss = out.Hard + w*out.Penalty
	if err := dev.Upload(c.dq, dq); err != nil {
		return out, err
	}
	for i, a := range []cuda.Buf{m.p, m.mIn} {
		if err := c.actionBackward(dev, m.Critic, m.critGrad, i, a, c.dq.At(i*b, b), cuda.Buf{}, i > 0); err != nil {
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
	if err := c.stateBackward(dev, m.Critic, m.critGrad, m.x); err != nil {
		return out, err
	}
	var err error
	if out.GradNorm, err = m.norm(m.critGrad.buf); err != nil {
		return out, err
	}
	layers := []*bnLayer{&c.c, &c.act[0].d, &c.act[0].f, &c.c, &c.act[1].d, &c.act[1].f}
	for i, l := range layers {
		out.Mean[i], out.InvStd[i] = make([]float32, n), make([]float32, n)
		if err := errors.Join(dev.Download(out.Mean[i], l.mean), dev.Download(out.InvStd[i], l.invStd)); err != nil {
			return out, err
		}
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
	if err := c.forward(dev, m.Critic, m.x, m.m); err != nil {
		return 0, 0, err
	}
	q := m.qHost[:b]
	if err := dev.Download(q, c.act[0].q); err != nil {
		return 0, 0, err
	}
	dq := make([]float32, b)
	for i, v := range q {
		loss -= float64(v)
		dq[i] = float32(-1 / float64(b))
	}
	loss /= float64(b)
	if err := dev.Upload(c.dq, dq); err != nil {
		return 0, 0, err
	}
	if err := c.actionBackward(dev, m.Critic, nil, 0, m.m, c.dq.At(0, b), m.dM, false); err != nil {
		return 0, 0, err
	}
	if err := sinkhornBackward(dev, m.dYa, m.dM, m.skSaved.At(0, sinkhorn.SavedLen(b, n, iters)), b, n, tau, iters); err != nil {
		return 0, 0, err
	}
	g := m.actorGrad
	gr := denseGrads{dx: m.dHa, dw: g.get("out.W"), db: g.get("out.b")}
	if err := denseBackward(dev, gr, m.dYa, cuda.Buf{}, m.aTrunk.out, m.Actor.get("out.W"), cuda.Buf{}, cuda.Buf{}, b*n, h, n, false); err != nil {
		return 0, 0, err
	}
	if err := m.aTrunk.backward(dev, m.Actor, g, m.x, m.dHa); err != nil {
		return 0, 0, err
	}
	norm, err = m.norm(g.buf)
	return loss, norm, err
}

// norm returns the L2 norm of x: partial sums on the device, added here in float64.
func (m *Matching) norm(x cuda.Buf) (float64, error) {
	blocks := max(1, min(normBlocks, (x.N+255)/256))
	if err := launch(m.dev, "sum_squares_partial", cuda.D1(blocks), cuda.D1(256), m.part, x, x.N); err != nil {
		return 0, err
	}
	if err := m.dev.Download(m.partHost[:blocks], m.part); err != nil {
		return 0, err
	}
	var s float64
	for _, v := range m.partHost[:blocks] {
		s += float64(v)
	}
	return math.Sqrt(s), nil
}

// AdamConfig are Adam's constants (agent's adam).
type AdamConfig struct{ Beta1, Beta2, Eps float64 }

// ApplyActor and ApplyCritic take one Adam step of rate lr on the actor's or the critic's
// parameters with their last gradients scaled by scale (the clip factor).
func (m *Matching) ApplyActor(a AdamConfig, lr, scale float64) error {
	m.AdamSteps[0]++
	return m.adam(a, m.Actor, m.actorGrad, m.actorM, m.actorV, m.AdamSteps[0], lr, scale)
}

func (m *Matching) ApplyCritic(a AdamConfig, lr, scale float64) error {
	m.AdamSteps[1]++
	return m.adam(a, m.Critic, m.critGrad, m.critM, m.critV, m.AdamSteps[1], lr, scale)
}

// adam is agent's adam.update on the device, with the same float32 constants.
func (m *Matching) adam(a AdamConfig, p, g, mom, vel *Flat, step int, lr, scale float64) error {
	t := float64(step)
	stepSize := float32(lr / (1 - math.Pow(a.Beta1, t)))
	invSqrtBC2 := float32(1 / math.Sqrt(1-math.Pow(a.Beta2, t)))
	n := p.buf.N
	return launch1(m.dev, "adam_step", n, p.buf, g.buf, mom.buf, vel.buf, n,
		float32(a.Beta1), float32(a.Beta2), float32(1-a.Beta1), float32(1-a.Beta2), stepSize, invSqrtBC2, float32(a.Eps), float32(scale))
}

// Grads returns the buffers of the last gradients: the actor's, then the critic's.
func (m *Matching) Grads() (actor, critic *Flat) { return m.actorGrad, m.critGrad }

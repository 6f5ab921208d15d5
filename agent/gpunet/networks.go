package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
)

// Net is an SPG actor-critic pair on a device, as agent's GPU learner drives it: acting, the
// critic's and the actor's gradients, Adam steps once the caller has checked the gradients.
type Net interface {
	// Act writes the actor's M (B x N x N) for B featurised states.
	Act(states, out []float32, tau float32, iters int) error
	// CriticGrad computes the critic's loss (hard MSE + w penalty) and its gradient for the
	// states, the hard and soft actions and the rewards, changing no parameter.
	CriticGrad(states, p, soft, r []float32, w float64) (CriticOut, error)
	// ActorGrad computes -mean Q(s, M') with M' fresh from the actor on the last CriticGrad's
	// states, and its gradient; it returns the loss and the gradient's norm.
	ActorGrad(tau float32, iters int) (loss, norm float64, err error)
	ApplyActor(a AdamConfig, lr, scale float64) error
	ApplyCritic(a AdamConfig, lr, scale float64) error
	// State returns the parameters, Adam's state and the target critic.
	State() State
	// Grads returns the last gradients' buffers: the actor's, then the critic's.
	Grads() (actor, critic *Flat)
	Close()
}

// CriticOut are the numbers of a critic update, read back before anything is changed.
type CriticOut struct {
	Loss, Hard, Penalty float64
	QHard, QSoft        []float32 // per state, valid until the next call
	GradNorm            float64
	// BN are the batch statistics of each batch-norm application in PyTorch's order, for the
	// running estimates the caller keeps (none for a critic without batch norm).
	BN []BNStats
}

// BNStats are one batch-norm application's statistics: layer Layer over Count values per
// channel.
type BNStats struct {
	Layer        string
	Count        int
	Mean, InvStd []float32
}

// State are a Net's buffers that a checkpoint holds.
type State struct {
	Actor, Critic *Flat
	// Target is the slow copy of the critic the actor's update ascends; nil without one.
	Target *Flat
	// Moments are Adam's: actor m, v, then critic m, v; Steps its step counts, actor then critic.
	Moments [4]*Flat
	Steps   *[2]int
}

// AdamConfig are Adam's constants (agent's adam).
type AdamConfig struct{ Beta1, Beta2, Eps float64 }

// networks is what every Net has: its device and buffers, the two networks' parameters, their
// gradients and Adam's state.
type networks struct {
	dev cuda.Device
	mem allocator

	actor, critic       *Flat
	actorGrad, critGrad *Flat
	actorM, actorV      *Flat
	critM, critV        *Flat
	steps               [2]int // Adam's step counts: actor, critic
	// target is the slow copy of the critic (nil without one), moved towards it at targetRate
	// after each critic step.
	target     *Flat
	targetRate float64

	part cuda.Buf // a gradient norm's scratch
}

// init allocates the parameter, gradient and moment buffers.
func (w *networks) init(dev cuda.Device, actor, critic []Spec) error {
	w.dev, w.mem = dev, allocator{dev: dev}
	var err error
	for _, f := range []struct {
		dst   **Flat
		specs []Spec
	}{{&w.actor, actor}, {&w.actorGrad, actor}, {&w.actorM, actor}, {&w.actorV, actor},
		{&w.critic, critic}, {&w.critGrad, critic}, {&w.critM, critic}, {&w.critV, critic}} {
		if *f.dst, err = newFlat(dev, f.specs); err != nil {
			w.Close()
			return err
		}
	}
	w.part = w.mem.get(2)
	return w.mem.err
}

// Close frees every buffer.
func (w *networks) Close() {
	for _, f := range []*Flat{w.actor, w.actorGrad, w.actorM, w.actorV, w.critic, w.critGrad, w.critM, w.critV, w.target} {
		if f != nil {
			f.free(w.dev)
		}
	}
	w.mem.free()
}

func (w *networks) State() State {
	return State{Actor: w.actor, Critic: w.critic, Target: w.target, Moments: [4]*Flat{w.actorM, w.actorV, w.critM, w.critV}, Steps: &w.steps}
}

// withTarget adds a target critic moved at rate after each critic step.
func (w *networks) withTarget(specs []Spec, rate float64) error {
	var err error
	w.target, err = newFlat(w.dev, specs)
	w.targetRate = rate
	return err
}

// criticInUse is the critic the actor's update ascends: the target where there is one.
func (w *networks) criticInUse() *Flat {
	if w.target != nil {
		return w.target
	}
	return w.critic
}

func (w *networks) Grads() (actor, critic *Flat) { return w.actorGrad, w.critGrad }

// norm returns the L2 norm of x (gpulayers.GradNorm: summed in double on the device).
func (w *networks) norm(x cuda.Buf) (float64, error) { return gpulayers.GradNorm(w.dev, w.part, x) }

// ApplyActor and ApplyCritic take one Adam step of rate lr on the actor's or the critic's
// parameters with their last gradients scaled by scale (the clip factor).
func (w *networks) ApplyActor(a AdamConfig, lr, scale float64) error {
	w.steps[0]++
	return w.adam(a, w.actor, w.actorGrad, w.actorM, w.actorV, w.steps[0], lr, scale)
}

// ApplyCritic also moves the target critic, where there is one, as agent's criticStep does.
func (w *networks) ApplyCritic(a AdamConfig, lr, scale float64) error {
	w.steps[1]++
	if err := w.adam(a, w.critic, w.critGrad, w.critM, w.critV, w.steps[1], lr, scale); err != nil {
		return err
	}
	if w.target == nil {
		return nil
	}
	n := w.critic.buf.N
	return launch1(w.dev, "lerp_to", n, w.target.buf, w.critic.buf, float32(w.targetRate), n)
}

// adam is agent's adam.update on the device (gpulayers.Adam), at Adam step step.
func (w *networks) adam(a AdamConfig, p, g, mom, vel *Flat, step int, lr, scale float64) error {
	opt := gpulayers.Adam{Beta1: a.Beta1, Beta2: a.Beta2, Eps: a.Eps, Step: step - 1}
	return opt.Update(w.dev, []cuda.Buf{p.buf}, []cuda.Buf{mom.buf}, []cuda.Buf{vel.buf}, []cuda.Buf{g.buf}, lr, scale)
}

// criticLoss fills out's Q values and losses from q (Q(s,P) for the batch's b states, then
// Q(s,M)) and the rewards r: hard = mean (Q(s,P) - r)^2, penalty = mean (Q(s,M) - Q(s,P))^2
// with Q(s,P) held fixed, loss = hard + w penalty, in float64 as the CPU learner reads them. It
// returns the loss's gradient with respect to q.
func criticLoss(out *CriticOut, q, r []float32, w float64) (dq []float32) {
	b := len(r)
	out.QHard, out.QSoft = q[:b], q[b:2*b]
	dq = make([]float32, 2*b)
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
	return dq
}

// negMean is the actor's loss -mean Q over the batch's Q values.
func negMean(q []float32) float64 {
	var s float64
	for _, v := range q {
		s -= float64(v)
	}
	return s / float64(len(q))
}

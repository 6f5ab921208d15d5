package learn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops/layers"
	"spg-tui/linalg/backend"
	"spg-tui/run"
)

// bnMomentum is PyTorch's BatchNorm momentum for the running statistics.
const bnMomentum = 0.1

// useBackendBLAS makes gorgonia's own GEMMs run on the BLAS the kernels use, once per process.
var useBackendBLAS sync.Once

// newSPGLearner returns the SPG learner of cfg (a validated configuration of an SPG model),
// training in float32 on minibatches of cfg.Batch, initialised like PyTorch from cfg.Seed (the
// same seed gives the same networks).
func newSPGLearner(cfg run.Spec) (*spgLearner, error) {
	useBackendBLAS.Do(func() {
		if impl := backend.Implementation(); impl != nil {
			G.Use(impl)
		}
	})
	a, err := nets.New(cfg)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5350474c)) // "SPGL"
	l := &spgLearner{
		cfg: cfg, arch: a, b: cfg.Batch,
		actor:  nets.NewParams(a.ActorSpecs(), tensor.Float32, rng),
		critic: nets.NewParams(a.CriticSpecs(), tensor.Float32, rng),
	}
	l.running = nets.NewParams(nets.RunningSpecs(a.BNLayers(), cfg.N), tensor.Float32, rng)
	if cfg.TargetCritic > 0 {
		l.target = &nets.Params{Specs: l.critic.Specs, Vals: make([]*tensor.Dense, len(l.critic.Vals))}
		for i, v := range l.critic.Vals {
			l.target.Vals[i] = v.Clone().(*tensor.Dense)
		}
	}
	l.actorOpt = newAdam[float32](l.actor.Sizes(), cfg.AdamBeta1, cfg.AdamBeta2, cfg.AdamEps)
	l.criticOpt = newAdam[float32](l.critic.Sizes(), cfg.AdamBeta1, cfg.AdamBeta2, cfg.AdamEps)
	if l.act, err = newActGraph(l); err != nil {
		return nil, fmt.Errorf("agent: acting graph: %w", err)
	}
	if l.crit, err = newCriticGraph(l); err != nil {
		return nil, fmt.Errorf("agent: critic graph: %w", err)
	}
	if l.pol, err = newActorGraph(l); err != nil {
		return nil, fmt.Errorf("agent: actor graph: %w", err)
	}
	if l.q, err = newQGraph(l); err != nil {
		return nil, fmt.Errorf("agent: Q graph: %w", err)
	}
	return l, nil
}

// spgLearner implements Learner with four static gorgonia graphs over shared parameter tensors:
// acting (actor forward), the critic's update, the actor's update (through the critic) and Q
// inference (batch norm with running statistics). Act and Q run any number of states in
// chunks of the graph batch b, padding the last chunk.
type spgLearner struct {
	cfg  run.Spec
	arch nets.Arch
	b    int

	actor, critic, running *nets.Params
	// target is the slow copy of the critic that the actor's update ascends (cfg.TargetCritic);
	// nil when the actor ascends the live critic.
	target              *nets.Params
	actorOpt, criticOpt *adam[float32]

	act  *actGraph
	crit *criticGraph
	pol  *actorGraph
	q    *qGraph
}

// checkHyper rejects learning rates no step can use. Tau and L are not checked here: they come
// from a validated run.Config (hyperAt), which checks them once.
func checkHyper(h Hyper) error {
	switch {
	case !(h.ActorLR >= 0) || math.IsInf(h.ActorLR, 1):
		return fmt.Errorf("actor-lr = %v: must be a finite number >= 0", h.ActorLR)
	case !(h.CriticLR >= 0) || math.IsInf(h.CriticLR, 1):
		return fmt.Errorf("critic-lr = %v: must be a finite number >= 0", h.CriticLR)
	}
	return nil
}

// setSinkhorn sets the policy's Sinkhorn layer to the step's live tau and L.
func setSinkhorn(sk *layers.SinkhornLayer, h Hyper) { sk.Set(h.Tau, h.SinkhornIters) }

// runGraph runs a graph once.
func runGraph(vm G.VM) error {
	vm.Reset()
	return vm.RunAll()
}

// Act implements Learner.
func (l *spgLearner) Act(states []float32, b int, h Hyper, m []float32) error {
	sl, nn := l.cfg.Facts.StateLen(l.cfg.N), l.cfg.N*l.cfg.N
	if b < 1 || len(states) < b*sl || len(m) < b*nn {
		return fmt.Errorf("agent: Act: %d states of %d floats into %d floats of M: want b >= 1, %d and %d floats",
			b, len(states), len(m), b*sl, b*nn)
	}
	if err := checkHyper(h); err != nil {
		return err
	}
	setSinkhorn(l.act.sk, h)
	x := l.act.x.Float32s()
	for lo := 0; lo < b; lo += l.b {
		k := min(l.b, b-lo)
		padChunk(x, states[lo*sl:(lo+k)*sl], sl)
		if err := runGraph(l.act.vm); err != nil {
			return fmt.Errorf("agent: Act: %w", err)
		}
		out := (*l.act.m).Data().([]float32)[:k*nn]
		if err := finiteAll("M", out); err != nil {
			return err
		}
		copy(m[lo*nn:], out)
	}
	return nil
}

// Scores implements Scorer: X, the actor's scores before the Sinkhorn layer, and M = S^L(X/tau)
// for b featurised states, from the same forward passes as Act.
func (l *spgLearner) Scores(states []float32, b int, h Hyper, x, m []float32) error {
	nn := l.cfg.N * l.cfg.N
	if len(x) < b*nn {
		return fmt.Errorf("agent: Scores: %d floats of X for %d states: want %d", len(x), b, b*nn)
	}
	keep := make([]float32, l.b*nn)
	l.act.sk.KeepInput(keep)
	defer l.act.sk.KeepInput(nil)
	for lo := 0; lo < b; lo += l.b {
		k := min(l.b, b-lo)
		if err := l.Act(states[lo*l.cfg.Facts.StateLen(l.cfg.N):], k, h, m[lo*nn:(lo+k)*nn]); err != nil {
			return err
		}
		copy(x[lo*nn:(lo+k)*nn], keep[:k*nn])
	}
	return nil
}

// padChunk fills dst (a graph batch of rows of length rl) with src (fewer or as many rows) and
// pads the remaining rows with copies of src's first row. The actor and the inference-mode
// critic treat every row on its own, so padding does not change the real rows' results.
func padChunk(dst, src []float32, rl int) {
	copy(dst, src)
	for i := len(src); i < len(dst); i += rl {
		copy(dst[i:i+rl], src[:rl])
	}
}

// finiteAll returns an error naming what if v holds a NaN or an infinity.
func finiteAll(what string, v []float32) error {
	if i := firstNonFinite(v); i >= 0 {
		return fmt.Errorf("non-finite %s (%v)", what, v[i])
	}
	return nil
}

// finiteValue returns an error naming what unless v is finite.
func finiteValue(what string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("non-finite %s (%v)", what, v)
	}
	return nil
}

// Update implements Learner. A non-finite loss, Q value or gradient returns an error before the
// network concerned (and the critic's running statistics) is changed.
func (l *spgLearner) Update(batch *Minibatch, h Hyper) (StepStats, error) {
	var st StepStats
	n, sl := l.cfg.N, l.cfg.Facts.StateLen(l.cfg.N)
	if batch == nil || batch.B != l.b || len(batch.States) != l.b*sl || len(batch.P) != l.b*n*n ||
		len(batch.M) != l.b*n*n || len(batch.Reward) != l.b {
		return st, fmt.Errorf("agent: Update: the batch must hold exactly %d transitions", l.b)
	}
	if err := checkHyper(h); err != nil {
		return st, err
	}
	setSinkhorn(l.pol.loss.sk, h)
	c := l.crit
	copy(c.x.Float32s(), batch.States)
	copy(c.p.Float32s(), batch.P)
	copy(c.m.Float32s(), batch.M)
	copy(c.r.Float32s(), batch.Reward)
	*c.w = 0
	if h.CriticPenalty {
		*c.w = 1
	}
	if err := l.criticStep(h.CriticLR, h.ClipNorm, &st); err != nil {
		return st, err
	}
	if h.CriticOnly {
		return st, nil
	}
	return st, l.actorStep(h.ActorLR, h.ClipNorm, &st)
}

// criticStep runs the critic graph and, if everything is finite, folds the batch statistics
// into the running ones and takes an Adam step of rate lr with the gradients clipped to clip.
func (l *spgLearner) criticStep(lr, clip float64, st *StepStats) error {
	c := l.crit
	defer zeroGrads(c.wrt)
	if err := runGraph(c.vm); err != nil {
		return fmt.Errorf("agent: critic update: %w", err)
	}
	var err error
	for _, s := range []struct {
		name string
		v    *G.Value
		dst  *float64
	}{{"critic loss", c.lossV, &st.CriticLoss}, {"critic hard loss", c.hardV, &st.CriticHard}, {"critic penalty", c.penV, &st.CriticPenalty}} {
		if *s.dst, err = scalarValue(*s.v); err != nil {
			return err
		}
		if err := finiteValue(s.name, *s.dst); err != nil {
			return err
		}
	}
	qh, qs := (*c.qHV).Data().([]float32), (*c.qSV).Data().([]float32)
	if err := errors.Join(finiteAll("Q(s,P)", qh), finiteAll("Q(s,M)", qs)); err != nil {
		return err
	}
	st.QHard, st.QSoft = mean32(qh), mean32(qs)
	grads, err := gradients(c.wrt)
	if err != nil {
		return err
	}
	norm := gradNorm(grads)
	if err := finiteValue("critic gradient norm", norm); err != nil {
		return err
	}
	for _, u := range c.loss.uses {
		mean, variance := l.running.Vals[l.runningIndex(u.Name)], l.running.Vals[l.runningIndex(u.Name)+1]
		if err := u.Layer.UpdateRunning(mean, variance, bnMomentum); err != nil {
			return err
		}
	}
	l.criticOpt.update(l.critic.Float32s(), grads, lr, clipScale(norm, clip))
	if l.target != nil {
		polyak(l.target.Float32s(), l.critic.Float32s(), float32(l.cfg.TargetCritic))
	}
	return nil
}

// polyak moves every target array towards src: dst = (1 - rate) dst + rate src.
func polyak(dst, src [][]float32, rate float32) {
	for i, d := range dst {
		for j, v := range src[i] {
			d[j] += rate * (v - d[j])
		}
	}
}

// runningIndex returns the index of batch-norm layer name's running mean in l.running (its
// variance follows).
func (l *spgLearner) runningIndex(name string) int {
	for i, s := range l.running.Specs {
		if s.Name == name+".mean" {
			return i
		}
	}
	panic("agent: no running statistics for batch-norm layer " + name)
}

// actorStep runs the actor graph and, if everything is finite, takes an Adam step of rate lr
// with the gradients clipped to clip.
func (l *spgLearner) actorStep(lr, clip float64, st *StepStats) error {
	a := l.pol
	defer zeroGrads(a.wrt)
	if err := runGraph(a.vm); err != nil {
		return fmt.Errorf("agent: actor update: %w", err)
	}
	var err error
	if st.ActorLoss, err = scalarValue(*a.lossV); err != nil {
		return err
	}
	if err := finiteValue("actor loss", st.ActorLoss); err != nil {
		return err
	}
	grads, err := gradients(a.wrt)
	if err != nil {
		return err
	}
	norm := gradNorm(grads)
	if err := finiteValue("actor gradient norm", norm); err != nil {
		return err
	}
	l.actorOpt.update(l.actor.Float32s(), grads, lr, clipScale(norm, clip))
	return nil
}

// gradients returns the gradient buffers the machine accumulated for the nodes.
func gradients(wrt []*G.Node) ([][]float32, error) {
	gs := make([][]float32, len(wrt))
	for i, n := range wrt {
		v, err := n.Grad()
		if err != nil {
			return nil, fmt.Errorf("agent: gradient of %v: %w", n, err)
		}
		gs[i] = v.Data().([]float32)
	}
	return gs, nil
}

// zeroGrads clears the gradient buffers: the TapeMachine adds into them on every run.
func zeroGrads(wrt []*G.Node) {
	for _, n := range wrt {
		if v, err := n.Grad(); err == nil {
			clear(v.Data().([]float32))
		}
	}
}

// scalarValue reads a scalar graph value.
func scalarValue(v G.Value) (float64, error) {
	switch v := v.(type) {
	case *G.F32:
		return float64(*v), nil
	case *tensor.Dense:
		if d, ok := v.Data().([]float32); ok && len(d) == 1 {
			return float64(d[0]), nil
		}
		if d, ok := v.Data().(float32); ok {
			return float64(d), nil
		}
	}
	return 0, fmt.Errorf("agent: %v (%T) is not a float32 scalar", v, v)
}

// mean32 is the mean of v in float64.
func mean32(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s / float64(len(v))
}

// Q implements Learner.
func (l *spgLearner) Q(states, p, m []float32, b int, qHard, qSoft []float32) error {
	sl, nn := l.cfg.Facts.StateLen(l.cfg.N), l.cfg.N*l.cfg.N
	if b < 1 || len(states) < b*sl || len(p) < b*nn || len(m) < b*nn || len(qHard) < b || len(qSoft) < b {
		return fmt.Errorf("agent: Q: buffers too short for %d states", b)
	}
	q := l.q
	for lo := 0; lo < b; lo += l.b {
		k := min(l.b, b-lo)
		padChunk(q.x.Float32s(), states[lo*sl:(lo+k)*sl], sl)
		padChunk(q.p.Float32s(), p[lo*nn:(lo+k)*nn], nn)
		padChunk(q.m.Float32s(), m[lo*nn:(lo+k)*nn], nn)
		if err := runGraph(q.vm); err != nil {
			return fmt.Errorf("agent: Q: %w", err)
		}
		qh, qs := (*q.qHV).Data().([]float32)[:k], (*q.qSV).Data().([]float32)[:k]
		if err := errors.Join(finiteAll("Q(s,P)", qh), finiteAll("Q(s,M)", qs)); err != nil {
			return err
		}
		copy(qHard[lo:], qh)
		copy(qSoft[lo:], qs)
	}
	return nil
}

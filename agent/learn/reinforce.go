package learn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/linalg/perm"
	"spg-tui/run"
)

// emaBeta is the decay of the moving-average reward baseline of the critic-free models: 0.8, as
// in the authors' PN-AC code (critic_exp_mvg_avg).
const emaBeta = 0.8

// OnPolicyLearner is a learner trained on its own samples, without replay or critic: the loop
// runs its steps instead of Algorithm 1's.
type OnPolicyLearner interface {
	Learner
	// Sample draws one permutation per state from the policy with rng into perms (b x n, the
	// task's convention), and keeps the states and choices for Reinforce.
	Sample(states []float32, b int, rng *rand.Rand, perms []int) error
	// Reinforce takes one policy-gradient step on the states last sampled, given their rewards.
	Reinforce(rewards []float64, h Hyper) (StepStats, error)
}

// ErrNoCritic is what Q returns for a learner without a trained critic (even when wrapped):
// its evaluations carry no Q values.
var ErrNoCritic = errors.New("no critic")

// reinforceLearner trains a nets.PolicyNet with REINFORCE (Williams 1992) against an exponential
// moving average of the batch-mean reward, as the authors did for PN-AC (the paper's appendix:
// "an exponential moving average made a suitable baseline"): on the first step the baseline is
// the batch's mean reward, then b <- beta b + (1 - beta) mean(r) with beta = 0.8, and the loss
// is mean_i -(r_i - b) log pi(a_i | s_i), descended by Adam with global gradient-norm clipping.
// Sampling draws from the caller's generator, so a run's samples are a function of its seed and
// resume exactly. Evaluation decodes greedily.
type reinforceLearner struct {
	cfg run.Spec
	net nets.PolicyNet[float32]
	w   *nets.Params
	opt *adam[float32]

	// baseline is the moving average; baselineSet is false before the first step.
	baseline    float64
	baselineSet bool

	b       int
	states  []float32
	actions []int
	logp    []float32
	dlogp   []float32
	grads   [][]float32
}

// newReinforceLearner returns the critic-free learner of cfg's model, initialised from cfg.Seed.
func newReinforceLearner(cfg run.Spec, net nets.PolicyNet[float32]) *reinforceLearner {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5350474c)) // "SPGL", as the SPG learner
	w := nets.NewParams(net.Specs(), tensor.Float32, rng)
	l := &reinforceLearner{cfg: cfg, net: net, w: w,
		opt: newAdam[float32](w.Sizes(), cfg.AdamBeta1, cfg.AdamBeta2, cfg.AdamEps)}
	l.grads = make([][]float32, len(w.Vals))
	for i, s := range w.Sizes() {
		l.grads[i] = make([]float32, s)
	}
	return l
}

// Act implements Learner with the greedy policy: M is the permutation matrix of the decoded
// permutation, which Hungarian rounding returns unchanged.
func (l *reinforceLearner) Act(states []float32, b int, _ Hyper, m []float32) error {
	n, sl := l.cfg.N, l.cfg.Facts.StateLen(l.cfg.N)
	if b < 1 || len(states) < b*sl || len(m) < b*n*n {
		return fmt.Errorf("agent: Act: %d states of %d floats into %d floats of M: want b >= 1, %d and %d floats",
			b, len(states), len(m), b*sl, b*n*n)
	}
	actions, p := make([]int, b*n), make([]int, n)
	l.net.Decode(l.w.Float32s(), states[:b*sl], b, nil, actions)
	clear(m[:b*n*n])
	for i := range b {
		l.net.ToPerm(actions[i*n:(i+1)*n], p)
		mi := m[i*n*n : (i+1)*n*n]
		// ActionToPerm(rowToCol) = perm inverts rowToCol, so rowToCol = perm^-1: M[perm[t]][t] = 1.
		for t, r := range p {
			mi[r*n+t] = 1
		}
	}
	return nil
}

// Sample implements OnPolicyLearner.
func (l *reinforceLearner) Sample(states []float32, b int, rng *rand.Rand, perms []int) error {
	n, sl := l.cfg.N, l.cfg.Facts.StateLen(l.cfg.N)
	if b < 1 || len(states) < b*sl || len(perms) < b*n {
		return fmt.Errorf("agent: Sample: %d states of %d floats into %d perm entries", b, len(states), len(perms))
	}
	l.b = b
	l.states = append(l.states[:0], states[:b*sl]...)
	l.actions = grow(l.actions, b*n)
	l.net.Decode(l.w.Float32s(), l.states, b, rng, l.actions)
	for i := range b {
		l.net.ToPerm(l.actions[i*n:(i+1)*n], perms[i*n:(i+1)*n])
		if err := perm.Validate(perms[i*n : (i+1)*n]); err != nil {
			return fmt.Errorf("agent: Sample: instance %d: %w", i, err)
		}
	}
	return nil
}

// Reinforce implements OnPolicyLearner. A non-finite loss or gradient returns an error before
// anything (parameters, baseline) changes. ActorLoss reports the REINFORCE loss and Baseline the
// moving average the advantages were taken against.
func (l *reinforceLearner) Reinforce(rewards []float64, h Hyper) (StepStats, error) {
	var st StepStats
	b := l.b
	if b < 1 || len(rewards) != b {
		return st, fmt.Errorf("agent: Reinforce: %d rewards for %d samples", len(rewards), b)
	}
	if !(h.ActorLR >= 0) || math.IsInf(h.ActorLR, 1) {
		return st, fmt.Errorf("actor-lr = %v: must be a finite number >= 0", h.ActorLR)
	}
	mean := 0.0
	for _, r := range rewards {
		mean += r
	}
	mean /= float64(b)
	baseline := mean
	if l.baselineSet {
		baseline = emaBeta*l.baseline + (1-emaBeta)*mean
	}
	w := l.w.Float32s()
	l.logp, l.dlogp = grow(l.logp, b), grow(l.dlogp, b)
	l.net.LogProbs(w, l.states, b, l.actions, l.logp)
	loss := 0.0
	for i, r := range rewards {
		adv := r - baseline
		loss -= adv * float64(l.logp[i])
		l.dlogp[i] = float32(-adv / float64(b))
	}
	loss /= float64(b)
	if err := finiteValue("actor loss", loss); err != nil {
		return st, err
	}
	for _, g := range l.grads {
		clear(g)
	}
	l.net.Backward(w, l.dlogp, l.grads)
	norm := gradNorm(l.grads)
	if err := finiteValue("actor gradient norm", norm); err != nil {
		return st, err
	}
	l.opt.update(w, l.grads, h.ActorLR, clipScale(norm, h.ClipNorm))
	l.baseline, l.baselineSet = baseline, true
	st.ActorLoss, st.Baseline = loss, baseline
	return st, nil
}

// Update implements Learner; a critic-free learner has no replay update.
func (l *reinforceLearner) Update(*Minibatch, Hyper) (StepStats, error) {
	return StepStats{}, fmt.Errorf("agent: %s is trained by REINFORCE on its own samples, not from replay", l.cfg.Model)
}

// Q implements Learner: there is no critic (ErrNoCritic).
func (l *reinforceLearner) Q(_, _, _ []float32, _ int, _, _ []float32) error {
	return fmt.Errorf("agent: %s: %w", l.cfg.Model, ErrNoCritic)
}

// grow returns s resized to n elements, reusing its storage when large enough. The contents are
// not preserved.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

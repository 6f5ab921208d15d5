package agent

import (
	"time"

	"fmt"
	"math"
	"math/rand/v2"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/parallel"
	"spg-tui/linalg/perm"
	"spg-tui/run"
)

// loopStream is the PCG stream of the training loop's generator (exploration and minibatch
// sampling), apart from the streams the learner and the datasets draw from.
const loopStream = 0x5350475f6c6f6f70 // "SPG_loop"

// stepResult is what one training step reports.
type stepResult struct {
	// stats are the update's numbers and the acted batch's Birkhoff measure (the mean of
	// sum(M * P) / N).
	stats learn.StepStats
	// rewards are the acted instances' rewards (the loop's buffer, valid until the next step).
	rewards []float64
}

// loop runs the steps of Algorithm 1. Besides the learner, its state is the replay buffer and
// the generator; the data order is a function of the step, so a checkpoint saves nothing else.
type loop struct {
	facts   *envs.Facts
	env     envs.Env
	train   envs.Dataset
	learner learn.Learner
	replay  *replay.Buffer
	pcg     *rand.PCG
	rng     *rand.Rand

	n, b, stateLen int
	// roundTime is how long the last step's Hungarian rounding took (bench reports it apart).
	roundTime time.Duration
	// rewardScale multiplies the environment's reward (Config.Reward).
	rewardScale float64

	// order is the shuffled training order of epoch orderEpoch.
	orderEpoch int
	order      []int32

	// Buffers of one step, reused.
	index    []int
	insts    []envs.Instance
	states   []float32
	m        []float32
	rowToCol []int
	perms    []int // a critic-free model's sampled permutations (b x n)
	perm     []int
	// decoders and workPerm (n ints each) are reward's, one per worker.
	decoders []learn.ActionDecoder
	workPerm []int
	rows     []int
	rewards  []float64
	slots    []int
	batch    learn.Minibatch
}

// newLoop prepares the training loop of cfg around learner, with an empty replay buffer.
func newLoop(cfg run.Spec, learner learn.Learner) (*loop, error) {
	env, err := envs.NewData(cfg.Task, cfg.N, cfg.Data)
	if err != nil {
		return nil, err
	}
	if cfg.TrainSize > math.MaxInt32 {
		return nil, fmt.Errorf("train-size %d: must be below 2^31", cfg.TrainSize)
	}
	capacity, err := replay.Capacity(cfg.Config)
	if err != nil {
		return nil, err
	}
	n, b, sl := cfg.N, cfg.Batch, cfg.Facts.StateLen(cfg.N)
	pcg := rand.NewPCG(cfg.Seed, loopStream)
	return &loop{
		facts: cfg.Facts, env: env,
		train:   envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, envs.Train), Size: cfg.TrainSize},
		learner: learner, replay: replay.New(n, capacity),
		pcg: pcg, rng: rand.New(pcg),
		n: n, b: b, stateLen: sl, rewardScale: learn.RewardScale(&cfg.Config),
		orderEpoch: -1,
		index:      make([]int, b), insts: make([]envs.Instance, b),
		states: make([]float32, b*sl), m: make([]float32, b*n*n), rowToCol: make([]int, b*n), perms: make([]int, b*n),
		perm: make([]int, n), rows: make([]int, cfg.K), rewards: make([]float64, b), slots: make([]int, b),
		batch: learn.Minibatch{
			B: b, States: make([]float32, b*sl), P: make([]float32, b*n*n), M: make([]float32, b*n*n),
			Reward: make([]float32, b),
		},
	}, nil
}

// orderOf returns the training order of epoch e: a shuffle of the training indices seeded by
// the training set's seed and e, so that every epoch is one pass and a resumed run walks the
// same order without saving it.
func (l *loop) orderOf(e int) []int32 {
	if l.orderEpoch == e {
		return l.order
	}
	if l.order == nil {
		l.order = make([]int32, l.train.Size)
	}
	for i := range l.order {
		l.order[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(l.train.Seed, uint64(e)))
	r.Shuffle(len(l.order), func(i, j int) { l.order[i], l.order[j] = l.order[j], l.order[i] })
	l.orderEpoch = e
	return l.order
}

// step runs training step t (0-based; errors name it 1-based, as the steps completed would):
// act on the step's fresh instances, round, explore, store, then update on a uniform minibatch.
func (l *loop) step(t int, cfg *run.Spec) (stepResult, error) {
	n, b := l.n, l.b
	l.fetch(t, &cfg.Config)
	h := learn.HyperAt(cfg, t)
	if op, ok := l.learner.(learn.OnPolicyLearner); ok {
		return l.reinforceStep(t, op, h)
	}
	if err := l.learner.Act(l.states, b, h, l.m); err != nil {
		return stepResult{}, fmt.Errorf("step %d: actor: %w", t+1, err)
	}
	if err := learn.CheckFinite(l.m, "M", n*n); err != nil {
		return stepResult{}, fmt.Errorf("step %d: %w", t+1, err)
	}
	rounding := time.Now()
	if err := assign.RoundBatchBy(l.m, b, n, l.rowToCol, h.RoundLog); err != nil {
		return stepResult{}, fmt.Errorf("step %d: rounding M: %w", t+1, err)
	}
	l.roundTime = time.Since(rounding)
	if cfg.Entry.Kind == run.KindUntrained {
		return l.untrainedStep(), nil
	}
	birkhoff := 0.0
	for i := range b { // in order: the exploration's draws follow the instances
		m, p := l.m[i*n*n:(i+1)*n*n], l.rowToCol[i*n:(i+1)*n]
		// sum(M * P): exchanging the same rows of M and P leaves it unchanged.
		s := 0.0
		for r, c := range p {
			s += float64(m[r*n+c])
		}
		birkhoff += s / float64(n)
		if h.Explore && l.rng.Float64() < h.Epsilon {
			rows := l.rows[:cfg.K]
			perm.DrawRows(l.rng, n, cfg.K, rows)
			perm.CycleRows(p, 1, rows)
			perm.CycleRows(m, n, rows)
		}
	}
	l.reward(h)
	l.replay.AddBatch(l.index, l.m, l.rowToCol, l.rewards)
	var st learn.StepStats
	updates := cfg.CriticUpdatesPerStep()
	for u := range updates {
		bt := l.sample()
		hu := h
		hu.CriticOnly = u < updates-1
		var err error
		if st, err = l.learner.Update(bt, hu); err != nil {
			return stepResult{}, fmt.Errorf("step %d: update: %w", t+1, err)
		}
	}
	if err := checkStats(st); err != nil {
		return stepResult{}, fmt.Errorf("step %d: %w", t+1, err)
	}
	st.Birkhoff = birkhoff / float64(b)
	return stepResult{stats: st, rewards: l.rewards}, nil
}

// reward decodes each instance's rounded action into the task's permutation and scores it,
// the instances split over the cores, each worker with a decoder of its own.
func (l *loop) reward(h learn.Hyper) {
	n := l.n
	if w := parallel.Workers(l.b); len(l.decoders) < w {
		l.decoders, l.workPerm = make([]learn.ActionDecoder, w), make([]int, w*n)
	}
	parallel.For(l.b, func(worker, lo, hi int) {
		d, pi := &l.decoders[worker], l.workPerm[worker*n:(worker+1)*n]
		for i := lo; i < hi; i++ {
			d.SetInstance(h, l.insts[i])
			d.ToPerm(h, l.rowToCol[i*n:(i+1)*n], pi)
			l.rewards[i] = l.env.Reward(l.insts[i], pi) * l.rewardScale
		}
	})
}

// sample draws a uniform minibatch from the replay buffer into the loop's batch: the draws in
// order, the transitions' assembly over the cores.
func (l *loop) sample() *learn.Minibatch {
	n, sl, bt := l.n, l.stateLen, &l.batch
	l.replay.Sample(l.rng, l.slots)
	parallel.For(len(l.slots), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			idx, r := l.replay.Get(l.slots[i], bt.M[i*n*n:(i+1)*n*n], bt.P[i*n*n:(i+1)*n*n])
			l.facts.Featurize(l.train.At(idx), bt.States[i*sl:(i+1)*sl])
			bt.Reward[i] = r
		}
	})
	return bt
}

// fetch loads step t's training instances and their featurised states, over the cores.
func (l *loop) fetch(t int, cfg *run.Config) {
	b, sl := l.b, l.stateLen
	spe := cfg.StepsPerEpoch()
	order := l.orderOf(t / spe)
	base := (t % spe) * b
	parallel.For(b, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			l.index[i] = int(order[base+i])
			l.insts[i] = l.train.At(l.index[i])
			l.facts.Featurize(l.insts[i], l.states[i*sl:(i+1)*sl])
		}
	})
}

// reinforceStep is a critic-free model's training step t: sample a permutation per instance
// from the policy with the loop's generator, score it, and take a REINFORCE step.
func (l *loop) reinforceStep(t int, op learn.OnPolicyLearner, h learn.Hyper) (stepResult, error) {
	n, b := l.n, l.b
	if err := op.Sample(l.states, b, l.rng, l.perms); err != nil {
		return stepResult{}, fmt.Errorf("step %d: sampling: %w", t+1, err)
	}
	for i := range b {
		l.rewards[i] = l.env.Reward(l.insts[i], l.perms[i*n:(i+1)*n]) * l.rewardScale
	}
	st, err := op.Reinforce(l.rewards, h)
	if err != nil {
		return stepResult{}, fmt.Errorf("step %d: update: %w", t+1, err)
	}
	return stepResult{stats: st, rewards: l.rewards}, nil
}

// untrainedStep completes a step of SPG+Random after acting and rounding: the rewards of the
// deterministic policy's actions, and no update.
func (l *loop) untrainedStep() stepResult {
	n := l.n
	for i := range l.b {
		nets.ActionToPerm(l.rowToCol[i*n:(i+1)*n], l.perm)
		l.rewards[i] = l.env.Reward(l.insts[i], l.perm) * l.rewardScale
	}
	return stepResult{rewards: l.rewards}
}

// checkStats reports the first non-finite loss or Q value of an update.
func checkStats(st learn.StepStats) error {
	for _, v := range []struct {
		name string
		x    float64
	}{
		{"critic loss", st.CriticLoss}, {"critic hard loss", st.CriticHard},
		{"critic penalty", st.CriticPenalty}, {"actor loss", st.ActorLoss},
		{"Q(s,P)", st.QHard}, {"Q(s,M)", st.QSoft},
	} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Errorf("non-finite %s (%v)", v.name, v.x)
		}
	}
	return nil
}

package enginetest

import (
	"errors"
	"math"

	"spg-tui/envs"
	"spg-tui/run"
)

// Metric is the default synthetic validation curve: it rises from the random baseline towards
// the optimum faster and higher for a smaller tau, more slowly without the critic penalty, and
// wobbles by seed, so that ablations over those settings differ visibly.
func Metric(cfg run.Config, step int) float64 {
	refs := References(cfg.Task, cfg.N)
	lo, hi := refs["random"], refs["optimal"]
	rate := 800.0 * (1 + 4*cfg.Tau)
	if !cfg.CriticPenalty {
		rate *= 3
	}
	frac := (1 - math.Exp(-float64(step)/rate)) * (0.97 - 0.2*math.Min(cfg.Tau, 1))
	wobble := 0.01 * math.Sin(float64(step)/150+float64(cfg.Seed))
	return lo + (hi-lo)*(frac+wobble)
}

// References are the baselines a start event carries, in the units of the task's metric:
// made-up values near those of real runs.
func References(task envs.Task, n int) map[string]float64 {
	return envs.MustFacts(task).Typical(n)
}

// MetricName is the name of the task's evaluation metric.
func MetricName(task envs.Task) string { return envs.MustFacts(task).Metric.Name }

// train is the synthetic training summary of step s: a noisy reward following the curve, and
// critic losses whose penalty grows when the penalty is off.
func (e *Engine) train(cfg run.Config, s int, eps float64) *run.Train {
	m := e.opts.Curve(cfg, s)
	noise := func(scale float64) float64 { return scale * (e.rng.Float64() - 0.5) }
	hard := 0.02*math.Exp(-float64(s)/2000) + 0.002 + noise(0.002)
	pen := 0.001 + noise(0.0005)
	if !cfg.CriticPenalty {
		pen = 0.05 * (1 - math.Exp(-float64(s)/1000))
	}
	t := &run.Train{
		RewardMean: 0.6*m + noise(0.03), RewardStd: 0.05,
		CriticHard: hard, CriticPenalty: pen, ActorLoss: -m,
		QHard: 0.6 * m, QSoft: 0.6*m + pen, Birkhoff: 0.9, Epsilon: eps,
		ActorLR: cfg.ActorLR * cfg.LRScale(s), CriticLR: cfg.CriticLR * cfg.LRScale(s),
	}
	t.CriticLoss = hard
	if cfg.CriticPenalty {
		t.CriticLoss += pen
	}
	e.mu.Lock()
	t.StepsPerSec = e.status.StepsPerSec
	e.mu.Unlock()
	return t
}

// eval is the synthetic validation of step s: the curve's metric, a Q scatter that hugs the
// diagonal with the penalty and drifts off it without, and samples.
func (e *Engine) eval(cfg run.Config, s int) *run.Eval {
	m := e.opts.Curve(cfg, s)
	ev := &run.Eval{Split: "val", MetricName: MetricName(cfg.Task), Metric: m, EvalReward: 0.6 * m}
	const states = 100
	drift := 0.02
	if !cfg.CriticPenalty {
		drift = 0.3
	}
	ev.QHardScatter = make([]float64, states)
	ev.QSoftScatter = make([]float64, states)
	for i := range states {
		q := 0.4 + 0.3*e.rng.Float64()
		ev.QHardScatter[i] = q
		ev.QSoftScatter[i] = q + drift*(e.rng.Float64()-0.3)
	}
	ev.Samples = e.samples(cfg, s)
	return ev
}

// samples are the first validation instances, each solved exactly and by the optimal solution
// perturbed by swaps that become rarer as training goes on.
func (e *Engine) samples(cfg run.Config, s int) []run.Sample {
	env, err := envs.NewData(cfg.Task, cfg.N, cfg.Data)
	if err != nil {
		return nil
	}
	solver := envs.MustFacts(cfg.Task).QuickSolver(cfg.N)
	seed := envs.SplitSeed(cfg.Seed, envs.Validation)
	out := make([]run.Sample, 0, 4)
	for i := range 4 {
		inst := env.Generate(seed, i)
		opt, err := env.Solve(solver, inst, e.rng)
		if err != nil {
			e.mu.Lock()
			e.err = errors.Join(e.err, err)
			e.mu.Unlock()
			return nil
		}
		perm := append([]int(nil), opt...)
		for range max(0, 3-s/cfg.EvalEvery) {
			a, b := e.rng.IntN(cfg.N), e.rng.IntN(cfg.N)
			perm[a], perm[b] = perm[b], perm[a]
		}
		m, entropy, birkhoff := softPerm(perm, s)
		out = append(out, run.Sample{Index: i, Instance: inst, Perm: perm, Objective: env.Objective(inst, perm),
			OptPerm: opt, OptObjective: env.Objective(inst, opt), OptSolverName: solver,
			M: m, Entropy: entropy, Birkhoff: birkhoff})
	}
	return out
}

// softPerm is a made-up soft permutation at step s that sharpens from the uniform matrix towards
// the permutation matrix of perm (column c holds row perm[c], as the trainer's samples have it),
// with its mean row entropy and Birkhoff number.
func softPerm(perm []int, s int) (m []float32, entropy, birkhoff float64) {
	n := len(perm)
	a := 1 - math.Exp(-float64(s)/400)
	rest := (1 - a) / float64(n)
	m = make([]float32, n*n)
	for i := range m {
		m[i] = float32(rest)
	}
	for c, r := range perm {
		m[r*n+c] += float32(a)
	}
	hi := a + rest
	entropy = -hi * math.Log(hi)
	if rest > 0 {
		entropy -= float64(n-1) * rest * math.Log(rest)
	}
	return m, entropy, hi
}

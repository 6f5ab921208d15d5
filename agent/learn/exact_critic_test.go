package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/agent/ops/gradcheck"
	"spg-tui/envs"
	"spg-tui/run"
)

// exactConfigs are toy configurations of the exact critic: every SPG model of tsp, and mwm's
// with both reward scales.
func exactConfigs() []run.Config {
	var cs []run.Config
	for _, m := range []string{run.ModelFactored, run.ModelAttention, "spg-sequential"} {
		cfg := devtest.ToyConfig(envs.TaskTSP, 5, 4, 8)
		cfg.Model, cfg.Critic = m, run.CriticExact
		cs = append(cs, cfg)
	}
	for _, m := range []string{run.ModelPairwise, "spg-matching"} {
		for _, r := range []string{run.RewardMean, run.RewardSum} {
			cfg := devtest.ToyConfig(envs.TaskMWM, 5, 4, 8)
			cfg.Model, cfg.Critic, cfg.Reward = m, run.CriticExact, r
			cs = append(cs, cfg)
		}
	}
	return cs
}

// On a permutation the exact critic is the training reward of the instance it acts on (minus
// the tour length; mwm's matched distance at the run's scale), through the learner's own Q.
func TestExactCriticIsTheReward(t *testing.T) {
	for _, cfg := range exactConfigs() {
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s on %s: %v", cfg.Model, cfg.Task, err)
		}
		l := newToyLearner(t, cfg)
		env, err := envs.New(cfg.Task, cfg.N)
		if err != nil {
			t.Fatal(err)
		}
		n, b, sl := cfg.N, 6, envs.MustFacts(cfg.Task).StateLen(cfg.N)
		rng := rand.New(rand.NewPCG(91, 3))
		states, p := make([]float32, b*sl), make([]float32, b*n*n)
		want := make([]float64, b)
		perm := make([]int, n)
		for k := range b {
			inst := env.Generate(5, k)
			envs.MustFacts(cfg.Task).Featurize(inst, states[k*sl:(k+1)*sl])
			rowToCol := rng.Perm(n)
			for i, j := range rowToCol {
				p[(k*n+i)*n+j] = 1
			}
			nets.ActionToPerm(rowToCol, perm)
			want[k] = env.Reward(inst, perm) * RewardScale(&cfg)
		}
		qh, qs := make([]float32, b), make([]float32, b)
		if err := l.Q(states, p, p, b, qh, qs); err != nil {
			t.Fatal(err)
		}
		for k := range b {
			if d := math.Abs(float64(qh[k]) - want[k]); d > 1e-5*max(1, math.Abs(want[k])) {
				t.Errorf("%s on %s (reward %s), state %d: Q = %v, want the reward %v", cfg.Model, cfg.Task, cfg.Reward, k, qh[k], want[k])
			}
		}
	}
}

// The exact critic's action gradient dQ/dA at soft actions, and the actor loss's gradient
// through it, against central differences in float64.
func TestExactCriticGradients(t *testing.T) {
	for _, cfg := range exactConfigs() {
		if cfg.Reward == run.RewardSum {
			continue // the same graph at another scale
		}
		cfg.N, cfg.Hidden = checkN, 8
		a, err := nets.New(run.Spec{Config: cfg, Facts: envs.MustFacts(cfg.Task)})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(92, uint64(len(cfg.Model))))
		tb := newToyBatch(a, cfg.Task, checkB, checkN, rng)
		act := tb.m.Clone().(*tensor.Dense)
		res, err := gradcheck.Check([]gradcheck.Param{{Name: "A", Value: act}}, func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
			qs, err := a.Critic(&nets.CriticCtx{Frozen: true, ActionGrad: true}, constant(g, tb.x, "x"), p)
			if err != nil {
				return nil, err
			}
			w := tensor.New(tensor.WithShape(checkB), tensor.WithBacking([]float64{1, -0.5, 2, 0.3}))
			return G.Sum(G.Must(G.HadamardProd(qs[0], constant(g, w, "w"))))
		}, gradcheck.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkResults(t, res, 1e-6)
		// The actor's gradients here are 1e-7 to 1e-10 (toy distances, tau 0.3), so the
		// differences' round-off (about 3e-11) reads as up to 5e-5 against gradcheck's floor.
		empty := nets.NewParams(nil, tensor.Float64, rng)
		checkActorLoss(t, a, randParams(a.ActorSpecs(), rng), empty, tb, 1e-4)
	}
}

// The exact critic has no parameters to learn: an update fits nothing (its hard loss against
// the true rewards is 0) and changes the actor, soft or hard.
func TestExactCriticUpdatesOnlyTheActor(t *testing.T) {
	for _, at := range []string{"", run.ActorAtHard} {
		cfg := exactConfigs()[0]
		cfg.ActorAt = at
		l := newToyLearner(t, cfg)
		if len(l.critic.Vals) != 0 {
			t.Fatalf("the exact critic has %d parameter tensors", len(l.critic.Vals))
		}
		env, _ := envs.New(cfg.Task, cfg.N)
		h := toyHyper(cfg)
		bt := actBatch(t, l, rand.New(rand.NewPCG(93, 1)), h)
		perm, sl, n := make([]int, cfg.N), envs.MustFacts(cfg.Task).StateLen(cfg.N), cfg.N
		for k := range bt.B {
			pts := make([]envs.Point, n)
			for i := range pts {
				pts[i] = envs.Point{float64(bt.States[k*sl+2*i]), float64(bt.States[k*sl+2*i+1])}
			}
			rowToCol := make([]int, n)
			for i := range n {
				for j := range n {
					if bt.P[(k*n+i)*n+j] == 1 {
						rowToCol[i] = j
					}
				}
			}
			nets.ActionToPerm(rowToCol, perm)
			bt.Reward[k] = float32(env.Reward(envs.Instance{Points: pts}, perm))
		}
		before := clone2(l.actor.Float32s())
		st, err := l.Update(bt, h)
		if err != nil {
			t.Fatal(err)
		}
		if st.CriticHard > 1e-10 {
			t.Errorf("actor-at %q: critic hard loss %g against the true rewards, want 0", at, st.CriticHard)
		}
		changed := false
		for i, v := range l.actor.Float32s() {
			for j := range v {
				changed = changed || v[j] != before[i][j]
			}
		}
		if !changed {
			t.Errorf("actor-at %q: the update left the actor unchanged", at)
		}
	}
}

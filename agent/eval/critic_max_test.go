package eval

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/linalg/perm"
	"spg-tui/run"
)

// The critic-max decode is the permutation the critic itself rates highest: on MWM-5 and
// sort-5, after a few updates on random rewards, no permutation of the 120 has a larger
// Q(s, P) than the decode's, each Q computed by the critic directly.
func TestCriticMaxIsTheCriticsMaximum(t *testing.T) {
	for _, tc := range []struct {
		task  envs.Task
		model string
	}{{envs.TaskMWM, run.ModelPairwise}, {envs.TaskSort, run.ModelFactored}, {envs.TaskMWM, "spg-matching"}} {
		const n = 5
		cfg := devtest.ToyConfig(tc.task, n, 5, 8)
		cfg.Model, cfg.Critic = tc.model, run.CriticBilinear
		l := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		rng := rand.New(rand.NewPCG(5, 1))
		for range 3 {
			if _, err := l.Update(actBatch(t, l, cfg, rng, h), h); err != nil {
				t.Fatal(err)
			}
		}
		env, err := envs.New(tc.task, n)
		if err != nil {
			t.Fatal(err)
		}
		pol := &Policy{cfg: *devtest.Spec(t, cfg), learner: l}
		if err := pol.CriticMaxAccepts(); err != nil {
			t.Fatalf("%s %s: %v", tc.task, tc.model, err)
		}
		buf := newCriticMaxBuffers(envs.MustFacts(tc.task), n)
		rowToCol := make([]int, n)
		q := func(states []float32, rc []int) float64 {
			p := make([]float32, n*n)
			for i, j := range rc {
				p[i*n+j] = 1
			}
			qh, qs := make([]float32, 1), make([]float32, 1)
			if err := l.Q(states, p, p, 1, qh, qs); err != nil {
				t.Fatal(err)
			}
			return float64(qh[0])
		}
		for i := range 3 {
			inst := env.Generate(11, i)
			if err := criticMaxRows(l, envs.MustFacts(tc.task), n, inst, buf, rowToCol); err != nil {
				t.Fatal(err)
			}
			states := buf.states[:len(buf.states)/len(buf.qHard)]
			got, best := q(states, rowToCol), math.Inf(-1)
			perm.Each(n, func(rc []int) { best = math.Max(best, q(states, rc)) })
			if got < best-1e-5*math.Max(1, math.Abs(best)) {
				t.Errorf("%s %s instance %d: the decode's Q %.7g, the best permutation's %.7g", tc.task, tc.model, i, got, best)
			}
		}
		sols, err := pol.SolveCriticMax(env, []envs.Instance{env.Generate(11, 0)})
		if err != nil || len(sols) != 1 || env.Validate(env.Generate(11, 0)) != nil {
			t.Fatalf("%s %s: SolveCriticMax: %v", tc.task, tc.model, err)
		}
	}
}

// Critics that are not linear in the action have no such maximum, and say so.
func TestCriticMaxRefuses(t *testing.T) {
	for _, cfg := range []run.Config{devtest.ToyConfig(envs.TaskMWM, 4, 5, 8), devtest.ToyConfig(envs.TaskTSP, 4, 5, 8)} {
		if cfg.Task == envs.TaskTSP {
			cfg.Model, cfg.Critic = run.ModelFactored, run.CriticBilinear
		}
		err := (&Policy{cfg: *devtest.Spec(t, cfg)}).CriticMaxAccepts()
		if err == nil || !strings.Contains(err.Error(), "no critic linear in the action") {
			t.Errorf("%s %s critic %s: %v, want a refusal", cfg.Task, cfg.Model, cfg.Critic, err)
		}
	}
}

// G is read in chunks of criticMaxChunk unit actions: at N = 12 (144 of them) the G read off in
// two chunks gives, summed over a permutation's entries, that permutation's Q.
func TestCriticMaxChunks(t *testing.T) {
	const n = 12
	cfg := devtest.ToyConfig(envs.TaskMWM, n, 5, 8)
	cfg.Model, cfg.Critic = run.ModelPairwise, run.CriticBilinear
	l := newToyLearner(t, cfg)
	env, err := envs.New(envs.TaskMWM, n)
	if err != nil {
		t.Fatal(err)
	}
	buf := newCriticMaxBuffers(envs.MustFacts(envs.TaskMWM), n)
	if n*n <= len(buf.qHard) {
		t.Fatalf("N = %d fits one chunk of %d", n, len(buf.qHard))
	}
	rowToCol := make([]int, n)
	if err := criticMaxRows(l, envs.MustFacts(envs.TaskMWM), n, env.Generate(3, 0), buf, rowToCol); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	states := buf.states[:len(buf.states)/len(buf.qHard)]
	for range 5 {
		perm := rng.Perm(n)
		p := make([]float32, n*n)
		var sum float64
		for i, j := range perm {
			p[i*n+j] = 1
			sum += float64(buf.g[i*n+j])
		}
		qh, qs := make([]float32, 1), make([]float32, 1)
		if err := l.Q(states, p, p, 1, qh, qs); err != nil {
			t.Fatal(err)
		}
		if math.Abs(sum-float64(qh[0])) > 1e-4*math.Max(1, math.Abs(sum)) {
			t.Fatalf("sum of G over a permutation %.6g, its Q %.6g", sum, qh[0])
		}
	}
}

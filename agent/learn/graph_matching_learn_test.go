package learn

import (
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/envs/gm"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/perm"
	"spg-tui/run"
)

// gmLearner is the float32 SPG learner of the graph-matching networks at size n, built as
// NewLearner builds its graphs, for the tests that run before gm is a registered task.
func gmLearner(t *testing.T, n, h, b int) *spgLearner {
	t.Helper()
	cfg := run.DefaultConfig(envs.TaskMWM, n)
	cfg.Batch, cfg.Hidden, cfg.Tau, cfg.ActorLR, cfg.CriticLR = b, h, 0.1, 1e-3, 1e-3
	a := testArch(t, "spg-gm", envs.TaskGM, n, h)
	rng := rand.New(rand.NewPCG(1, 2))
	l := &spgLearner{cfg: run.Spec{Config: cfg, Facts: envs.MustFacts(cfg.Task)}, arch: a, b: b,
		actor:  nets.NewParams(a.ActorSpecs(), tensor.Float32, rng),
		critic: nets.NewParams(a.CriticSpecs(), tensor.Float32, rng),
	}
	l.running = nets.NewParams(nets.RunningSpecs(a.BNLayers(), n), tensor.Float32, rng)
	l.actorOpt = newAdam[float32](l.actor.Sizes(), cfg.AdamBeta1, cfg.AdamBeta2, cfg.AdamEps)
	l.criticOpt = newAdam[float32](l.critic.Sizes(), cfg.AdamBeta1, cfg.AdamBeta2, cfg.AdamEps)
	var err error
	if l.act, err = newActGraph(l); err != nil {
		t.Fatal(err)
	}
	if l.crit, err = newCriticGraph(l); err != nil {
		t.Fatal(err)
	}
	if l.pol, err = newActorGraph(l); err != nil {
		t.Fatal(err)
	}
	return l
}

// gmRollout draws b ER instances (p = 0.4, G2 with the given noise) into the acting graph,
// acts, rounds M to permutations P and returns the mean objective of their correspondences,
// with the states, P, M and rewards written into the critic graph's inputs.
func gmRollout(t *testing.T, l *spgLearner, rng *rand.Rand, noise float64) float64 {
	t.Helper()
	n, b := l.cfg.N, l.b
	x := l.act.x.Float32s()
	g1s, g2s := make([][][]int8, b), make([][][]int8, b)
	for s := range b {
		g1, g2, _ := gm.Generate(rng, gm.Params{N: n, Graph: gm.ErdosRenyi, P: 0.4, Noise: noise})
		g1s[s], g2s[s] = g1, g2
		for i := range n {
			for j := range n {
				x[(s*2*n+i)*n+j] = float32(g1[i][j])
				x[(s*2*n+n+i)*n+j] = float32(g2[i][j])
			}
		}
	}
	if err := runGraph(l.act.vm); err != nil {
		t.Fatal(err)
	}
	m := (*l.act.m).Data().([]float32)
	rows := make([]int, b*n)
	if err := assign.RoundBatch(m, b, n, rows); err != nil {
		t.Fatal(err)
	}
	c := l.crit
	copy(c.x.Float32s(), x)
	copy(c.m.Float32s(), m)
	p := c.p.Float32s()
	clear(p)
	corr := make([]int, n)
	var mean float64
	for s := range b {
		r := rows[s*n : (s+1)*n]
		for i, j := range r {
			p[(s*n+i)*n+j] = 1
		}
		perm.Invert(corr, r) // row = G2 node, column = G1 node
		obj := gm.Objective(g1s[s], g2s[s], corr)
		c.r.Float32s()[s] = float32(obj)
		mean += obj / float64(b)
	}
	return mean
}

// A short run of SPG on ER graphs at N = 8 with noise 0.1 raises the rounded actor's objective
// above where it starts: the networks and the reward-form critic carry a learning signal.
// Noiseless graphs would not do: the walk features and the consensus rounds match them before
// any training.
func TestGraphMatchingLearns(t *testing.T) {
	const n, h, b, steps, noise = 8, 16, 32, 150, 0.1
	l := gmLearner(t, n, h, b)
	hy := Hyper{Tau: 0.1, SinkhornIters: 10}
	setSinkhorn(l.act.sk, hy)
	setSinkhorn(l.pol.loss.sk, hy)
	rng := rand.New(rand.NewPCG(3, 4))
	var first, last float64
	for step := range steps {
		r := gmRollout(t, l, rng, noise)
		switch {
		case step < 10:
			first += r / 10
		case step >= steps-10:
			last += r / 10
		}
		var st StepStats
		if err := l.criticStep(1e-3, l.cfg.ClipNorm, &st); err != nil {
			t.Fatal(err)
		}
		if err := l.actorStep(1e-3, l.cfg.ClipNorm, &st); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("mean objective: first 10 steps %.3f, last 10 %.3f", first, last)
	if last < first+0.03 {
		t.Fatalf("objective %.3f after %d steps, %.3f at the start", last, steps, first)
	}
}

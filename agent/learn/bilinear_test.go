package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/run"
)

// The bilinear critic's loss (penalty off and on) and the actor loss through it, against
// central differences, at toy sizes in float64.
func TestBilinearCriticGradients(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, checkN)
	cfg.Hidden, cfg.Critic = checkH, run.CriticBilinear
	a, err := nets.New(run.Spec{Config: cfg, Facts: envs.MustFacts(cfg.Task)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(a.CriticSpecs(), func(s nets.ParamSpec) bool { return s.Name == "q.W" }) {
		t.Fatalf("nets.New gave %T, a critic without the bilinear head", a)
	}
	rng := rand.New(rand.NewPCG(61, 1))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	tb := newToyBatch(a, envs.TaskMWM, checkB, checkN, rng)
	for _, w := range []float64{0, 1} {
		checkCriticLoss(t, a, cp, tb, w)
	}
	checkActorLoss(t, a, ap, cp, tb, 1e-5)
}

// A learner with the bilinear critic trains, saves and reloads like the paper's.
func TestBilinearLearnerRoundTrip(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 5)
	cfg.Critic, cfg.Batch, cfg.Buffer, cfg.Hidden = run.CriticBilinear, 4, 4, 8
	l := newTestLearner(t, cfg)
	rng := rand.New(rand.NewPCG(1, 2))
	b := &Minibatch{B: 4, States: make([]float32, 4*envs.MustFacts(envs.TaskMWM).StateLen(5)), P: make([]float32, 4*25), M: make([]float32, 4*25), Reward: make([]float32, 4)}
	for i := range b.States {
		b.States[i] = rng.Float32()
	}
	for k := range 4 {
		for i, j := range rng.Perm(5) {
			b.P[k*25+i*5+j] = 1
			b.M[k*25+i*5+j] = 0.8
		}
		b.Reward[k] = 0.5
	}
	h := HyperAt(devtest.Spec(t, cfg), 0)
	st, err := l.Update(b, h)
	if err != nil {
		t.Fatal(err)
	}
	if st.CriticLoss <= 0 || st.ActorLoss == 0 {
		t.Errorf("stats %+v", st)
	}
	data, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	l2 := newTestLearner(t, cfg)
	if err := l2.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	qh, qs := make([]float32, 4), make([]float32, 4)
	qh2, qs2 := make([]float32, 4), make([]float32, 4)
	if err := l.Q(b.States, b.P, b.M, 4, qh, qs); err != nil {
		t.Fatal(err)
	}
	if err := l2.Q(b.States, b.P, b.M, 4, qh2, qs2); err != nil {
		t.Fatal(err)
	}
	for i := range qh {
		if qh[i] != qh2[i] || qs[i] != qs2[i] {
			t.Fatalf("Q after reload %v %v, before %v %v", qh2, qs2, qh, qs)
		}
	}
	paper := cfg
	paper.Critic = run.CriticPaper
	if err := newTestLearner(t, paper).UnmarshalBinary(data); err == nil {
		t.Error("a paper-critic learner loaded a bilinear-critic state")
	}
}

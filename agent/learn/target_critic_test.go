package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// targetRun trains a toy SPG+Attention learner with target critic rate for two updates on the
// same batches and returns it with the live critic's arrays after each critic update (the first
// entry is the initial critic).
func targetRun(t *testing.T, rate float64) (*spgLearner, [][][]float32) {
	t.Helper()
	cfg := targetConfig(rate)
	l := newToyLearner(t, cfg)
	h := toyHyper(cfg)
	rng := rand.New(rand.NewPCG(91, 1))
	critics := [][][]float32{clone2(l.critic.Float32s())}
	for range 2 {
		if _, err := l.Update(actBatch(t, l, rng, h), h); err != nil {
			t.Fatal(err)
		}
		critics = append(critics, clone2(l.critic.Float32s()))
	}
	return l, critics
}

// targetConfig is a toy SPG+Attention run on TSP-4 with target critic rate.
func targetConfig(rate float64) run.Config {
	cfg := devtest.ToyConfig(envs.TaskTSP, 4, 5, 8)
	cfg.Model, cfg.Critic, cfg.TargetCritic = run.ModelAttention, run.CriticBilinear, rate
	return cfg
}

// clone2 deep-copies arrays.
func clone2(a [][]float32) [][]float32 {
	c := make([][]float32, len(a))
	for i, v := range a {
		c[i] = slices.Clone(v)
	}
	return c
}

// The target critic follows the live one at the Polyak rate, and the actor's update ascends it:
// at rate 1 the target is the live critic and training is bit for bit the run without a target;
// at rate 0.25 the actor learns differently.
func TestTargetCritic(t *testing.T) {
	const rate = 0.25
	l, critics := targetRun(t, rate)
	want := clone2(critics[0])
	for _, c := range critics[1:] {
		for i := range want {
			for j := range want[i] {
				want[i][j] += float32(rate) * (c[i][j] - want[i][j])
			}
		}
	}
	for i, got := range l.target.Float32s() {
		if !slices.Equal(got, want[i]) {
			t.Fatalf("target array %d after two updates differs from the Polyak average of the critics", i)
		}
	}
	live, _ := targetRun(t, 0)
	one, _ := targetRun(t, 1)
	if live.target != nil {
		t.Error("a run without a target critic has one")
	}
	for i, a := range live.actor.Float32s() {
		if !slices.Equal(a, one.actor.Float32s()[i]) {
			t.Fatalf("rate 1: actor array %d differs from the run without a target", i)
		}
	}
	same := true
	for i, a := range live.actor.Float32s() {
		same = same && slices.Equal(a, l.actor.Float32s()[i])
	}
	if same {
		t.Error("rate 0.25: the actor learned exactly as with the live critic")
	}

	// The target is part of the learner's state: a resumed learner continues from it.
	data, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	fresh := newToyLearner(t, targetConfig(rate))
	if err := fresh.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	for i, a := range l.target.Float32s() {
		if !slices.Equal(a, fresh.target.Float32s()[i]) {
			t.Fatalf("target array %d not restored", i)
		}
	}
}

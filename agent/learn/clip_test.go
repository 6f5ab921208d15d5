package learn

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
)

// Learners clip their gradients to the norm of the step's hyperparameters, not to that of the
// configuration they were built from: a tighter clip in Hyper changes the update.
func TestUpdateClipsToHyper(t *testing.T) {
	marshal := func(l Learner) []byte {
		b, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	spg := func(h Hyper) []byte {
		l := newToyLearner(t, devtest.ToyConfig(envs.TaskMWM, 4, 4, 8))
		batch := actBatch(t, l, rand.New(rand.NewPCG(3, 3)), h)
		if _, err := l.Update(batch, h); err != nil {
			t.Fatal(err)
		}
		return marshal(l)
	}
	reinforce := func(h Hyper) []byte {
		cfg := devtest.ToyConfig(envs.TaskSort, 4, 4, 8)
		cfg.Model = "pn-ac"
		l, err := NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		op := l.(OnPolicyLearner)
		rng := rand.New(rand.NewPCG(3, 3))
		perms := make([]int, cfg.Batch*cfg.N)
		if err := op.Sample(devtest.ToyStates(envs.TaskSort, cfg.N, cfg.Batch, rng), cfg.Batch, rng, perms); err != nil {
			t.Fatal(err)
		}
		if _, err := op.Reinforce([]float64{1, 0, 3, 2}, h); err != nil {
			t.Fatal(err)
		}
		return marshal(l)
	}
	for name, update := range map[string]func(Hyper) []byte{"spg": spg, "reinforce": reinforce} {
		h := toyHyper(devtest.ToyConfig(envs.TaskMWM, 4, 4, 8))
		tight := h
		tight.ClipNorm = 1e-6
		if bytes.Equal(update(h), update(tight)) {
			t.Errorf("%s: clip norms %g and %g give the same update", name, h.ClipNorm, tight.ClipNorm)
		}
	}
}

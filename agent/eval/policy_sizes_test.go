package eval

import (
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// scaledLearner is a learner of cfg at size n whose actor parameters are the seed's times 1.5,
// so that they differ from any freshly initialised network's.
func scaledLearner(t *testing.T, cfg run.Config, n int) learn.Learner {
	t.Helper()
	cfg.N = n
	l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	actor, ok := learn.ActorParams(l)
	if !ok {
		t.Fatalf("%s has no SPG actor", cfg.Model)
	}
	for _, a := range actor.Float32s() {
		for i := range a {
			a[i] *= 1.5
		}
	}
	return l
}

// TestPolicyAtAnotherSize checks that a checkpoint of a model that runs at any N solves
// instances of another N with its own parameters: the same permutations as the same parameters
// in networks built at that N.
func TestPolicyAtAnotherSize(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP, envs.TaskSort, envs.TaskGM} {
		cfg, err := run.WithRecipe(run.DefaultConfig(task, 7), run.RecipeBest)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Batch = 16
		if task == envs.TaskSort {
			// best's SPG+Factored sorts (or reverses) small instances with any monotone item
			// and place embeddings, fresh ones included, so no parameters could be told apart.
			cfg.Model = run.ModelPairwise
		}
		state, err := scaledLearner(t, cfg, 7).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		l7, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := l7.UnmarshalBinary(state); err != nil {
			t.Fatal(err)
		}
		pol := &Policy{cfg: *devtest.Spec(t, cfg), learner: l7, state: state}
		cfg11 := cfg
		cfg11.N = 11
		want := &Policy{cfg: *devtest.Spec(t, cfg11), learner: scaledLearner(t, cfg, 11)}
		env, err := envs.New(task, 11)
		if err != nil {
			t.Fatal(err)
		}
		ds := envs.Dataset{Env: env, Seed: 5, Size: 20}
		insts := make([]envs.Instance, ds.Size)
		for i := range insts {
			insts[i] = ds.At(i)
		}
		got, err := pol.Solve(env, insts)
		if err != nil {
			t.Fatalf("%s: %v", task, err)
		}
		exp, err := want.Solve(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := learn.NewLearner(*devtest.Spec(t, cfg11), nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := (&Policy{cfg: *devtest.Spec(t, cfg11), learner: fresh}).Solve(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		differs := false
		for i := range insts {
			if !slices.Equal(got[i].Perm, exp[i].Perm) {
				t.Fatalf("%s instance %d: the n = 7 checkpoint at n = 11 gives %v, its parameters built at n = 11 %v", task, i, got[i].Perm, exp[i].Perm)
			}
			differs = differs || !slices.Equal(got[i].Perm, other[i].Perm)
		}
		if !differs {
			t.Errorf("%s: the checkpoint's parameters and fresh ones give the same permutations: the test cannot tell them apart", task)
		}
	}
}

// TestPolicyRefusesAnotherSize checks the one-line refusals: a model with layers sized by N at
// another N, and another task.
func TestPolicyRefusesAnotherSize(t *testing.T) {
	pol, _, _ := samplingPolicy(t, envs.TaskMWM, 7, run.RecipePaper)
	env, err := envs.New(envs.TaskMWM, 9)
	if err != nil {
		t.Fatal(err)
	}
	_, err = pol.Solve(env, []envs.Instance{envs.Dataset{Env: env, Seed: 1, Size: 1}.At(0)})
	if err == nil || !strings.Contains(err.Error(), "spg-matching") || !strings.Contains(err.Error(), "mwm n = 9") || strings.Contains(err.Error(), "\n") {
		t.Errorf("spg-matching at another n: got %v, want a one-line refusal naming the model and the size", err)
	}
	if err := pol.Accepts(envs.TaskTSP, 7); err == nil || !strings.Contains(err.Error(), "tsp") {
		t.Errorf("another task: got %v", err)
	}
	if err := pol.Accepts(envs.TaskMWM, 7); err != nil {
		t.Errorf("its own task and size: %v", err)
	}
}

// TestAnyNModelsLoadAtAnotherSize checks every catalogue entry that declares AnyN against its
// networks: on each task it learns, the state of a learner at n = 7 loads into the same networks
// built at n = 11 (no array sized by N).
func TestAnyNModelsLoadAtAnotherSize(t *testing.T) {
	for _, m := range run.Models {
		if !m.AnyN {
			continue
		}
		for _, task := range m.Tasks() {
			cfg := run.DefaultConfig(task, 7)
			cfg.Model, cfg.Batch, cfg.Hidden = m.Name, 8, 8
			if m.Defaults != nil {
				m.Defaults(&cfg)
			}
			l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", m.Name, task, err)
			}
			state, err := l.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			pol := &Policy{cfg: *devtest.Spec(t, cfg), learner: l, state: state}
			if _, err := pol.learnerAt(11); err != nil {
				t.Errorf("%s on %s declares AnyN, but: %v", m.Name, task, err)
			}
		}
	}
}

package learn

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// actorAtTask is the task the test trains model on: tsp where it learns it, else its first.
func actorAtTask(m run.Model) envs.Task {
	if m.Supports(envs.TaskTSP) {
		return envs.TaskTSP
	}
	return m.Tasks()[0]
}

// actorAtUpdate builds the toy learner of model with cfg.ActorAt = at, makes one update on a
// batch that depends only on the seeds, and returns its actor and critic.
func actorAtUpdate(t *testing.T, m run.Model, at string) (actor, critic [][]float32) {
	t.Helper()
	cfg := devtest.ToyConfig(actorAtTask(m), 4, 5, 8)
	cfg.Model = m.Name
	if m.Defaults != nil {
		m.Defaults(&cfg)
	}
	cfg.ActorAt = at
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	l := newToyLearner(t, cfg)
	h := toyHyper(cfg)
	if _, err := l.Update(actBatch(t, l, rand.New(rand.NewPCG(17, 2)), h), h); err != nil {
		t.Fatal(err)
	}
	return clone2(l.actor.Float32s()), clone2(l.critic.Float32s())
}

// For every SPG model: --actor-at soft is bit for bit the update without the setting; hard
// leaves the critic's update alone (it runs first) and changes the actor's, except where the
// critic is linear in the action (SPG+Pairwise's, both SPG+Successors' and, off tsp, SPG+Factored's
// bilinear critic, Q = sum(action * G(state))):
// there dQ/dP does not depend on P, so hard gives the soft update exactly.
func TestActorAtHardChangesOnlyTheActorUpdate(t *testing.T) {
	for _, m := range run.Models {
		if m.Kind != run.KindSPG {
			continue
		}
		actor, critic := actorAtUpdate(t, m, "")
		softA, softC := actorAtUpdate(t, m, run.ActorAtSoft)
		hardA, hardC := actorAtUpdate(t, m, run.ActorAtHard)
		if !reflect.DeepEqual(softA, actor) || !reflect.DeepEqual(softC, critic) {
			t.Errorf("%s: soft differs from the default", m.Name)
		}
		if !reflect.DeepEqual(hardC, critic) {
			t.Errorf("%s: hard changed the critic's update", m.Name)
		}
		same := true
		for i := range actor {
			same = same && slices.Equal(actor[i], hardA[i])
		}
		linear := m.Name == run.ModelPairwise || m.Name == run.ModelSuccessor || m.Name == run.ModelSuccessorLocal || m.Name == run.ModelSuccessorGraph || (m.Name == run.ModelFactored && actorAtTask(m) != envs.TaskTSP)
		if same != linear {
			t.Errorf("%s on %s: hard gave the soft actor update: %v, want %v", m.Name, actorAtTask(m), same, linear)
		}
	}
}

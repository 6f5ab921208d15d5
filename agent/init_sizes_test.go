package agent

import (
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestInitFromAnotherSize: a model that runs at any N starts at N = 9 from the best actor of a
// run at N = 6, every array the same; another model, or an actor of the wrong shape, is refused
// in one line naming why.
func TestInitFromAnotherSize(t *testing.T) {
	small := run.DefaultConfig(envs.TaskTSP, 6)
	small.Model = run.ModelSuccessor
	run.ModelOf(small).Defaults(&small)
	small.Steps, small.EvalEvery, small.ValSize, small.TestSize, small.Batch, small.Hidden = 4, 2, 8, 8, 8, 8
	src := trainToEnd(t, small)

	large := small
	large.N, large.Init = 9, src
	actor, err := readInitActor(*devtest.Spec(t, large))
	if err != nil {
		t.Fatal(err)
	}
	l, err := learn.NewLearner(*devtest.Spec(t, large), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := setActor(l, actor); err != nil {
		t.Fatal(err)
	}
	got, _ := learn.ActorParams(l)
	for i := range actor {
		if !slices.Equal(got.Vals[i].Float32s(), actor[i]) {
			t.Errorf("actor array %d is not the checkpoint's", i)
		}
	}

	other := large
	other.Model = run.ModelFactored
	if _, err := readInitActor(*devtest.Spec(t, other)); err == nil || !strings.Contains(err.Error(), run.ModelSuccessor) {
		t.Errorf("init of %s from %s: %v", run.ModelFactored, run.ModelSuccessor, err)
	}
	if err := setActor(l, actor[:len(actor)-1]); err == nil {
		t.Error("setActor took an actor with an array missing")
	}
	short := slices.Clone(actor)
	short[0] = short[0][:len(short[0])-1]
	if err := setActor(l, short); err == nil {
		t.Error("setActor took an array of the wrong length")
	}
}

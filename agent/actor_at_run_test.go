package agent

import (
	"bytes"
	"reflect"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// A whole run with actor-at soft logs exactly the records and checkpoint of the run without
// the setting; hard trains another actor.
func TestActorAtSoftRecordsUnchanged(t *testing.T) {
	run1 := func(at string) runSummary {
		cfg := tinyConfig(envs.TaskTSP, 4)
		cfg.Model, cfg.Critic = run.ModelAttention, run.CriticBilinear
		cfg.Hidden, cfg.Steps, cfg.ActorLR, cfg.CriticLR = 16, 30, 1e-3, 1e-3
		cfg.ActorAt = at
		dir := t.TempDir()
		e, err := StartRun(cfg, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, e)
		if e.Err() != nil {
			t.Fatal(e.Err())
		}
		return summarise(t, dir)
	}
	want := run1("")
	if got := run1(run.ActorAtSoft); !reflect.DeepEqual(got, want) {
		t.Error("actor-at soft: the run differs from one without the setting")
	}
	if got := run1(run.ActorAtHard); bytes.Equal(got.params, want.params) {
		t.Error("actor-at hard: the run's parameters equal the soft run's")
	}
}

package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestKilledRunResumesExactly puts back the checkpoints/last that a kill at step 15 leaves and
// resumes from it. Before a run's first periodic checkpoint (10 minutes in) that used to be an
// early one, without the replay buffer, so the resumed run drifted from the uninterrupted one;
// while the buffer is small a validation now writes the full checkpoint, and the resumed run
// ends exactly as the uninterrupted one.
func TestKilledRunResumesExactly(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	straight := t.TempDir()
	waitDone(t, mustStart(t, cfg, straight, fakeOpts{}))
	want := summarise(t, straight)

	dir := t.TempDir()
	last := filepath.Join(dir, run.LastCheckpoint)
	var atKill []byte
	e := mustStart(t, cfg, dir, fakeOpts{hook: func(u int) {
		if u == 15 {
			atKill, _ = os.ReadFile(last)
		}
	}})
	waitDone(t, e)
	if err := os.WriteFile(last, atKill, 0o644); err != nil {
		t.Fatal(err)
	}
	ck, err := checkpoint.Open(last)
	if err != nil {
		t.Fatal(err)
	}
	ck.Close()
	if h := ck.Header; h.Step != 10 || h.ReplayOmitted {
		t.Errorf("checkpoints/last at step 15: step %d, replay omitted %v; want the full checkpoint of step 10", h.Step, h.ReplayOmitted)
	}
	r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if r.Err() != nil || r.Status().State != run.StateDone {
		t.Fatalf("resumed run: %v, %+v", r.Err(), r.Status())
	}
	if got := summarise(t, dir); !reflect.DeepEqual(got, want) {
		t.Error("the run resumed after a kill differs from the uninterrupted one")
	}
}

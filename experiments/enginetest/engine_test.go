package enginetest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/run"
)

func tiny() run.Config {
	c := run.DefaultConfig(envs.TaskMWM, 5)
	c.TrainSize, c.Batch, c.Buffer, c.ValSize, c.TestSize = 1000, 10, 100, 10, 10
	c.LogEvery, c.EvalEvery, c.Steps = 10, 50, 100
	return c
}

// collect reads every record until the run ends.
func collect(t *testing.T, e run.Engine) []run.Record {
	t.Helper()
	var out []run.Record
	timeout := time.After(10 * time.Second)
	for {
		select {
		case r, ok := <-e.Records():
			if !ok {
				<-e.Done()
				return out
			}
			out = append(out, r)
		case <-timeout:
			t.Fatal("run did not end")
		}
	}
}

func TestRunToCompletion(t *testing.T) {
	dir := t.TempDir()
	e, err := New(tiny(), dir, Options{Buffer: 1000})
	if err != nil {
		t.Fatal(err)
	}
	recs := collect(t, e)
	kinds := map[string]int{}
	for _, r := range recs {
		kinds[r.Kind]++
	}
	if recs[0].Event == nil || recs[0].Event.Event != run.EventStart || recs[0].References["optimal"] != 1 {
		t.Errorf("first record %+v is not the start event", recs[0])
	}
	// 10 train summaries, 2 val evaluations + 1 test, start + done events.
	if kinds[run.KindTrain] != 10 || kinds[run.KindEval] != 3 || kinds[run.KindEvent] != 2 {
		t.Errorf("record kinds %v", kinds)
	}
	if st := e.Status(); st.State != run.StateDone || st.Step != 100 {
		t.Errorf("status %+v", st)
	}
	onDisk, err := run.ReadRecords(filepath.Join(dir, "metrics.jsonl"))
	if err != nil || len(onDisk) != len(recs) {
		t.Errorf("metrics.jsonl: %d records (%v), want %d", len(onDisk), err, len(recs))
	}
	for _, r := range recs {
		if r.Eval == nil || r.Split != "val" {
			continue
		}
		if len(r.QHardScatter) != 100 || len(r.Samples) != 4 {
			t.Errorf("eval at %d: %d scatter points, %d samples", r.Step, len(r.QHardScatter), len(r.Samples))
		}
		for _, s := range r.Samples {
			if s.Objective > s.OptObjective+1e-9 {
				t.Errorf("sample %d beats the optimum: %g > %g", s.Index, s.Objective, s.OptObjective)
			}
		}
	}
}

func TestControls(t *testing.T) {
	c := tiny()
	c.Steps = 1_000_000
	dir := t.TempDir()
	e, err := New(c, dir, Options{StepDelay: time.Millisecond, Buffer: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Set(run.ParamTau, -1); err == nil {
		t.Error("tau = -1 accepted")
	}
	if err := e.Set(run.ParamSinkhornIters, 2.5); err == nil {
		t.Error("L = 2.5 accepted")
	}
	if err := e.Set(run.ParamEpsilon, 1.5); err == nil {
		t.Error("epsilon = 1.5 accepted")
	}
	if e.Config().Tau != c.Tau {
		t.Error("a refused value changed the configuration")
	}
	if err := e.Set(run.ParamTau, 0.5); err != nil || e.Config().Tau != 0.5 {
		t.Errorf("tau = 0.5: %v, config %g", err, e.Config().Tau)
	}
	if err := e.Set(run.FlagCriticPenalty, 0); err != nil || e.Config().CriticPenalty {
		t.Errorf("penalty off: %v", err)
	}
	e.Pause()
	deadline := time.Now().Add(5 * time.Second)
	for e.Status().State != run.StatePaused && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	s1 := e.Status().Step
	time.Sleep(20 * time.Millisecond)
	if s2 := e.Status().Step; s2 != s1 {
		t.Errorf("paused run advanced from %d to %d", s1, s2)
	}
	e.Resume()
	e.Stop()
	recs := collect(t, e)
	var sets, ckpts int
	for _, r := range recs {
		if r.Event != nil && r.Event.Event == run.EventSet {
			sets++
		}
		if r.Event != nil && r.Event.Event == run.EventCheckpoint {
			ckpts++
		}
	}
	if sets != 2 || ckpts != 1 {
		t.Errorf("%d set events, %d checkpoints; want 2 and 1", sets, ckpts)
	}
	if st := e.Status(); st.State != run.StateStopped {
		t.Errorf("state %v after Stop", st.State)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkpoints", "last")); err != nil {
		t.Error(err)
	}
}

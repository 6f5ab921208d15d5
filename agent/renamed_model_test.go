package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/eval"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/run"
)

// A run written when the gm models were named by number (config.json and its checkpoints saying
// spg-gm2 or spg-gm3) still views, evaluates and resumes, as the model's new name.
func TestRunOfARenamedModelStillReads(t *testing.T) {
	for old, now := range map[string]string{"spg-gm2": run.ModelGMLogStep, "spg-gm3": run.ModelGMSpectral} {
		cfg := tinyConfig(envs.TaskGM, 6)
		cfg.Model, cfg.Hidden, cfg.Steps = now, 8, 20
		dir := trainToEnd(t, cfg)
		nameModel(t, dir, now, old)

		// The console's view reads config.json.
		if c, err := run.ReadRunConfig(dir); err != nil || c.Model != now || run.ModelOf(c).Name != now {
			t.Fatalf("%s: config.json read as model %q, %v; want %s", old, c.Model, err, now)
		}
		p, err := eval.LoadPolicy(dir, nil)
		if err != nil {
			t.Fatalf("%s: eval: %v", old, err)
		}
		env, _ := envs.New(envs.TaskGM, 6)
		if sols, err := p.Solve(env, []envs.Instance{env.Generate(1, 0)}); err != nil || len(sols) != 1 || p.Model().Name != now {
			t.Errorf("%s: eval: %v solutions by model %q, %v; want one by %s", old, len(sols), p.Model().Name, err, now)
		}
		e, err := ResumeRun(dir, cfg.Steps+10, nil)
		if err != nil {
			t.Fatalf("%s: resume: %v", old, err)
		}
		waitDone(t, e)
		if e.Err() != nil || e.Status().Step != cfg.Steps+10 {
			t.Errorf("%s: resumed to step %d, %v; want %d", old, e.Status().Step, e.Err(), cfg.Steps+10)
		}
	}
}

// nameModel rewrites the run in dir as a run written under the model's old name: config.json
// and both checkpoints, their configurations' model old instead of now.
func nameModel(t *testing.T, dir, now, old string) {
	t.Helper()
	path := filepath.Join(dir, run.ConfigFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	renamed := bytes.ReplaceAll(data, []byte(`"`+now+`"`), []byte(`"`+old+`"`))
	if bytes.Equal(renamed, data) {
		t.Fatalf("config.json names no model %s: %s", now, data)
	}
	if err := os.WriteFile(path, renamed, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{run.LastCheckpoint, run.BestCheckpoint} {
		path := filepath.Join(dir, name)
		ck, err := checkpoint.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		h := ck.Header
		capacity, _ := replay.Capacity(h.Config)
		buf := replay.New(h.Config.N, capacity)
		if ck.ReadReplay(buf) != nil {
			buf = nil // the best checkpoint holds none
		}
		ck.Close()
		h.Config.Model = old
		if h.Start != nil {
			start := *h.Start
			start.Model = old
			h.Start = &start
		}
		if err := checkpoint.Write(path, &h, ck.Learner, buf); err != nil {
			t.Fatal(err)
		}
	}
}

package agent

import (
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
)

// A trained run's policy loads from its directory (the best checkpoint) and from its last
// checkpoint, solves instances of its task and size, and refuses another size; a file that is
// not a checkpoint is refused.
func TestPolicyFromCheckpoint(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskTSP, 5)
	cfg.Hidden = 16
	e, err := StartRun(cfg, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e)
	if e.Err() != nil {
		t.Fatal(e.Err())
	}
	for _, path := range []string{dir, filepath.Join(dir, run.LastCheckpoint)} {
		p, err := eval.LoadPolicy(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.Config().Task != envs.TaskTSP || p.Step() < 10 {
			t.Errorf("%s: policy of %+v at step %d", path, p.Config(), p.Step())
		}
		if m := p.Model(); m.Name != cfg.Model || m.Title == "" {
			t.Errorf("%s: the policy's model resolved to %+v, want the catalogue's %s", path, m, cfg.Model)
		}
		env, _ := envs.New(envs.TaskTSP, 5)
		insts := []envs.Instance{env.Generate(1, 0), env.Generate(1, 1), env.Generate(1, 2)}
		sols, err := p.Solve(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range sols {
			if s.Index != i || len(s.Perm) != 5 || s.Objective != env.Objective(insts[i], s.Perm) {
				t.Errorf("solution %+v", s)
			}
		}
		other, _ := envs.New(envs.TaskTSP, 6)
		if _, err := p.Solve(other, []envs.Instance{other.Generate(1, 0)}); err == nil || !strings.Contains(err.Error(), "n = 5") {
			t.Errorf("instances of another size: %v", err)
		}
	}
	if _, err := eval.LoadPolicy(filepath.Join(dir, run.ConfigFile), nil); err == nil {
		t.Error("a non-checkpoint file was loaded")
	}
}

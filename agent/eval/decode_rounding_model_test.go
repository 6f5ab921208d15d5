package eval

import (
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestDecodingRoundingNeedsASinkhornLayer: eval --rounding log on a pointer network used to
// decode as without it and say "rounding log" in its summary; it is refused in one line, and
// --rounding m (the default's name) still decodes.
func TestDecodingRoundingNeedsASinkhornLayer(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskSort, 6)
	cfg.Model, cfg.Batch = "pn-ac", 16
	l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	env, err := envs.New(envs.TaskSort, 6)
	if err != nil {
		t.Fatal(err)
	}
	insts := []envs.Instance{env.Generate(1, 0), env.Generate(1, 1)}
	pol := &Policy{cfg: *devtest.Spec(t, cfg), learner: l}
	dec := SingleDecode
	dec.Rounding = run.RoundingLog
	if _, err := pol.SolveWith(env, insts, dec); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "rounding log") {
		t.Errorf("--rounding log on PN-AC: error %v, want one line naming rounding log", err)
	}
	dec.Rounding = run.RoundingM
	if _, err := pol.SolveWith(env, insts, dec); err != nil {
		t.Errorf("--rounding m on PN-AC: %v", err)
	}
}

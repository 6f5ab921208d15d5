package run

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

// A run trains up to MaxN (the replay buffer's byte a row); a model's networks alone
// (ResolveModel: a policy decoding) go to the task's instance bound, and are refused past it in
// one line.
func TestResolveModelBoundsAtTheInstanceBound(t *testing.T) {
	c := DefaultConfig(envs.TaskTSP, 300)
	c.Model, c.Critic = ModelSuccessor, CriticBilinear
	if _, err := Resolve(c); err == nil || err.Error() != "n 300: must be in [2, 255]" {
		t.Errorf("a run at n = 300: %v; want n 300: must be in [2, 255]", err)
	}
	if s, err := ResolveModel(c); err != nil || s.N != 300 || s.Entry.Name != ModelSuccessor {
		t.Errorf("a model at n = 300: %+v, %v", s.Entry, err)
	}
	c.N = 4096
	if _, err := ResolveModel(c); err != nil {
		t.Errorf("a model at n = 4096, tsp's bound: %v", err)
	}
	c.N = 4097
	if _, err := ResolveModel(c); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "size n = 4097: tsp instances have at most n = 4096") {
		t.Errorf("a model at n = 4097: %v; want one line naming tsp's bound", err)
	}
	c = DefaultConfig(envs.TaskGM, 1025)
	if _, err := ResolveModel(c); err == nil || !strings.Contains(err.Error(), "gm instances have at most n = 1024") {
		t.Errorf("a gm model at n = 1025: %v; want gm's bound", err)
	}
}

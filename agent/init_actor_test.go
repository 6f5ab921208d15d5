package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/authors"
	"spg-tui/agent/checkpoint"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestInitFromImportedRun: --init reads the imported actor (and nothing else), refuses a
// checkpoint of another size, and a refused start writes no run directory.
func TestInitFromImportedRun(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 15)
	cfg.ValSize, cfg.TestSize = 50, 50
	src := filepath.Join(t.TempDir(), "imported")
	if _, _, err := authors.ImportActor(cfg, filepath.Join("authors", "testdata", "authors", "actor-mwm15.npz"), src); err != nil {
		t.Fatal(err)
	}
	want := checkpointActor(t, filepath.Join(src, run.BestCheckpoint))
	initCfg := run.DefaultConfig(envs.TaskMWM, 15)
	initCfg.Seed, initCfg.Init = 7, src
	actor, err := readInitActor(*devtest.Spec(t, initCfg))
	if err != nil {
		t.Fatal(err)
	}
	l, err := learn.NewLearner(*devtest.Spec(t, initCfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The critic's Q of a state and action is the critic's alone: setActor must leave it.
	n, sl := initCfg.N, envs.MustFacts(initCfg.Task).StateLen(initCfg.N)
	states, p := make([]float32, initCfg.Batch*sl), make([]float32, initCfg.Batch*n*n)
	for i := range states {
		states[i] = float32(i%7) / 7
	}
	for k := range initCfg.Batch {
		for i := range n {
			p[(k*n+i)*n+i] = 1
		}
	}
	q := func() []float32 {
		qh, qs := make([]float32, initCfg.Batch), make([]float32, initCfg.Batch)
		if err := l.Q(states, p, p, initCfg.Batch, qh, qs); err != nil {
			t.Fatal(err)
		}
		return qh
	}
	fresh := q()
	if err := setActor(l, actor); err != nil {
		t.Fatal(err)
	}
	got, _ := learn.ActorParams(l)
	for i, s := range got.Specs {
		if !slices.Equal(got.Vals[i].Float32s(), want[i]) {
			t.Errorf("actor tensor %s is not the imported one", s.Name)
		}
	}
	if !slices.Equal(q(), fresh) {
		t.Error("--init changed the critic")
	}
	other := run.DefaultConfig(envs.TaskMWM, 20)
	other.Init, other.Steps = src, 10
	out := filepath.Join(t.TempDir(), "run")
	if _, err := StartRun(other, out, nil); err == nil || !strings.Contains(err.Error(), "n = 15") {
		t.Errorf("init of n = 20 from n = 15: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused start left %s (%v)", out, err)
	}
}

// checkpointActor is the SPG actor's parameters of the checkpoint at path.
func checkpointActor(t *testing.T, path string) [][]float32 {
	t.Helper()
	ck, err := checkpoint.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ck.Close()
	l, err := learn.NewLearner(*devtest.Spec(t, ck.Header.Config), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.UnmarshalBinary(ck.Learner); err != nil {
		t.Fatal(err)
	}
	actor, ok := learn.ActorParams(l)
	if !ok {
		t.Fatalf("%s holds no SPG actor", path)
	}
	return actor.Float32s()
}

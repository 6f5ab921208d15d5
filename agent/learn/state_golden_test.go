package learn

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// The learner states in testdata were written by the learners of an earlier release (a toy SPG
// learner on mwm and a pn-ac learner on sort, each after one update): they still load, and
// marshal back to the same bytes, so checkpoints of existing runs keep resuming.
func TestStoredStatesRoundTrip(t *testing.T) {
	pnac := devtest.ToyConfig(envs.TaskSort, 4, 4, 8)
	pnac.Model = "pn-ac"
	for file, cfg := range map[string]run.Config{
		"state-spg-mwm4.bin":   devtest.ToyConfig(envs.TaskMWM, 4, 4, 8),
		"state-pnac-sort4.bin": pnac,
	} {
		stored, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(fresh, stored) {
			t.Fatalf("%s: a fresh learner already marshals to the stored state", file)
		}
		if err := l.UnmarshalBinary(stored); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		back, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(back, stored) {
			t.Errorf("%s: loaded and marshalled again it gives %d bytes unlike the stored %d", file, len(back), len(stored))
		}
	}
}

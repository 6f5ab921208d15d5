package agent

import (
	"testing"

	"spg-tui/run"
)

// Every model of the catalogue has networks here, and nothing else does.
func TestEveryModelHasAnArch(t *testing.T) {
	for _, m := range run.Models {
		for _, task := range m.Tasks {
			if _, err := newArch(m.Name, task, 5, 4); err != nil {
				t.Errorf("%s on %s: %v", m.Name, task, err)
			}
		}
	}
	if len(archs) != len(run.Models) {
		t.Errorf("%d architectures registered for %d models", len(archs), len(run.Models))
	}
	if _, err := newArch("nope", "mwm", 5, 4); err == nil {
		t.Error("an unknown model was built")
	}
}

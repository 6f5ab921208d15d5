package envs

import (
	"strings"
	"testing"

	"spg-tui/sysmem"
)

// TestSolveMemoryRefused: one MWM-100000 instance needs two 80 GB matrices for the Hungarian
// solver; SolveAll must refuse it with one line before allocating (it used to die in the
// runtime). The instance is never touched, so its points may stay zero.
func TestSolveMemoryRefused(t *testing.T) {
	if sysmem.Limit() >= 160e9 {
		t.Skip("this machine could hold the matrices")
	}
	var env Env = MustFacts(TaskMWM).New(100000) // above the bound New keeps to: SolveAll checks memory whatever n
	_, err := SolveAll(env, "hungarian", make([]Instance, 1), 1)
	if err == nil || !strings.Contains(err.Error(), "solver hungarian on mwm n = 100000 (1 at once) needs about 149.0 GiB") {
		t.Errorf("hungarian on MWM-100000: %v", err)
	}
	if err := checkSolveMemory(env, "random", 1); err == nil {
		t.Error("random on MWM-100000 builds the distance matrix too, yet was accepted")
	}
	small, _ := New(TaskTSP, 1000)
	if err := checkSolveMemory(small, "2opt", 1000); err != nil {
		t.Errorf("TSP-1000: %v", err)
	}
}

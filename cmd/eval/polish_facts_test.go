package evalcmd

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

// --polish takes what the task's facts offer (Facts.Polishes), whatever the task's name.
func TestCheckPolishReadsTheFacts(t *testing.T) {
	f := *envs.MustFacts(envs.TaskSort)
	f.Task, f.Order = "sort-polished", 98
	f.Polishes, f.Polish = []string{"again"}, func(_ string, _ envs.Instance, perm []int) ([]int, error) { return perm, nil }
	t.Cleanup(envs.Register(&f))
	if err := checkPolish("again", f.Task); err != nil {
		t.Errorf("a task with the polish refused it: %v", err)
	}
	if err := checkPolish("2swap", f.Task); err == nil || !strings.Contains(err.Error(), "must be one of again") {
		t.Errorf("another task's polish: %v, want it refused naming the task's", err)
	}
	if err := checkPolish("again", envs.TaskSort); err == nil || !strings.Contains(err.Error(), "sort's solutions take no polish") {
		t.Errorf("sort: %v, want no polish", err)
	}
}

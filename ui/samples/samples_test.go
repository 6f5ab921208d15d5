package samples

import (
	"testing"

	"spg-tui/envs"
)

// Every task of the program has its drawer, and a drawer registered twice is refused.
func TestEveryTaskHasADrawer(t *testing.T) {
	for _, task := range envs.Tasks {
		if _, ok := For(task); !ok {
			t.Errorf("task %s has no drawer", task)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a second drawer of mwm was registered")
		}
	}()
	d, _ := For(envs.TaskMWM)
	Register(envs.TaskMWM, d)
}

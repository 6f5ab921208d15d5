package evalcmd

import (
	"errors"
	"testing"
	"time"

	"spg-tui/envs"
)

// The first decode's warm-up is not timed: a decode slow on its first call only times fast,
// and its solutions are those of the timed call.
func TestTimedDecodeSkipsWarmUp(t *testing.T) {
	calls := 0
	solve := func(insts []envs.Instance) ([]envs.Solution, error) {
		calls++
		if calls == 1 {
			time.Sleep(300 * time.Millisecond)
		}
		return make([]envs.Solution, len(insts)), nil
	}
	sols, d, err := timedDecode(solve, make([]envs.Instance, 5))
	if err != nil || len(sols) != 5 || calls != 2 {
		t.Fatalf("%d solutions, %v, %d calls", len(sols), err, calls)
	}
	if d >= 150*time.Millisecond {
		t.Errorf("timed %v: the warm-up counted", d)
	}
	fail := func([]envs.Instance) ([]envs.Solution, error) { return nil, errors.New("bad") }
	if _, _, err := timedDecode(fail, make([]envs.Instance, 1)); err == nil {
		t.Error("the warm-up's error was dropped")
	}
}

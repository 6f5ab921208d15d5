package evalcmd

import (
	"time"

	"spg-tui/envs"
)

// timedDecode runs solve on insts and times it, after one untimed decode of the first
// instance: the first decode at a size builds the learner's graphs and buffers, a warm-up that
// would otherwise count in the first decode's time per instance only (K = 2 sampling then
// looked faster than the single decode before it).
func timedDecode(solve func([]envs.Instance) ([]envs.Solution, error), insts []envs.Instance) ([]envs.Solution, time.Duration, error) {
	if len(insts) > 0 {
		if _, err := solve(insts[:1]); err != nil {
			return nil, 0, err
		}
	}
	start := time.Now()
	sols, err := solve(insts)
	return sols, time.Since(start), err
}

package agent

import (
	"fmt"

	"spg-tui/agent/nets"
)

// nameFailing turns err, the failure of the policy's learner l on a batch of size states of
// size n (a NaN or an infinity from values near the float32 limits), into the failure of the
// first instance that fails alone, so that the message names it.
func (p *Policy) nameFailing(l Learner, n int, states []float32, size int, h Hyper, err error) error {
	sl := nets.StateLen(p.cfg.Task, n)
	perm := make([]int, n)
	for i := range size {
		if e := actDeterministic(l, p.cfg.Task, n, states[i*sl:(i+1)*sl], 1, h, perm, nil); e != nil {
			return fmt.Errorf("instance %d: %w", i, e)
		}
	}
	return err
}

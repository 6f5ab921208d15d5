package agent

import (
	"fmt"

	"spg-tui/agent/nets"
)

// nameFailing turns err, the failure of the policy on a batch of size states (a NaN or an
// infinity from values near the float32 limits), into the failure of the first instance that
// fails alone, so that the message names it.
func (p *Policy) nameFailing(states []float32, size int, h Hyper, err error) error {
	n, sl := p.cfg.N, nets.StateLen(p.cfg.Task, p.cfg.N)
	perm := make([]int, n)
	for i := range size {
		if e := actDeterministic(p.learner, p.cfg.Task, n, states[i*sl:(i+1)*sl], 1, h, perm, nil); e != nil {
			return fmt.Errorf("instance %d: %w", i, e)
		}
	}
	return err
}

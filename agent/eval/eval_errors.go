package eval

import (
	"fmt"

	"spg-tui/agent/learn"
	"spg-tui/envs"
)

// nameFailing turns err, the failure of the policy's learner l on the batch insts of size n,
// featurised as states (a NaN or an infinity from values near the float32 limits), into the
// failure of the first instance that fails alone, so that the message names it.
func (p *Policy) nameFailing(l learn.Learner, n int, insts []envs.Instance, states []float32, h learn.Hyper, err error) error {
	sl := p.cfg.Facts.StateLen(n)
	perm := make([]int, n)
	for i := range insts {
		if e := actDeterministic(l, p.cfg.Facts, n, insts[i:i+1], states[i*sl:(i+1)*sl], h, perm, nil); e != nil {
			return fmt.Errorf("instance %d: %w", i, e)
		}
	}
	return err
}

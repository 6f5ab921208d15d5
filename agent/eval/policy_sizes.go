package eval

import (
	"fmt"
	"strings"

	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// sizedBatch bounds the graph batch of a policy built at another N: its graphs (the critic's
// included) grow as batch x N^2, and acting gives the same answers at any batch.
const sizedBatch = 32

// SizedBatchAt is the graph batch of a policy built at size n: sizedBatch up to run.MaxN, fewer
// above so that its graphs take what they take at MaxN (about 0.6 GB for spg-successor, 9 GB
// at n = 1,000 with all 32) at any decoding size.
func SizedBatchAt(n int) int {
	return max(1, min(sizedBatch, sizedBatch*run.MaxN*run.MaxN/(n*n)))
}

// Accepts reports, in one line, why the policy cannot solve instances of task at size n: another
// task, or another size for a model with layers sized by N.
func (p *Policy) Accepts(task envs.Task, n int) error {
	switch {
	case task != p.cfg.Task:
		return fmt.Errorf("the checkpoint is for %s n = %d, the instances are %s n = %d", p.cfg.Task, p.cfg.N, task, n)
	case n != p.cfg.N && !p.cfg.Entry.AnyN:
		return fmt.Errorf("the checkpoint is for %s n = %d, the instances are %s n = %d: its model %s has layers sized by n (models that run at any n: %s)",
			p.cfg.Task, p.cfg.N, task, n, p.cfg.Model, strings.Join(run.AnyNModels(), ", "))
	}
	return nil
}

// learnerAt is the policy's learner at size n: its own at its N, else the same parameters in
// networks built for n (kept for the next call at n).
func (p *Policy) learnerAt(n int) (learn.Learner, error) {
	if n == p.cfg.N {
		return p.learner, nil
	}
	if p.sized != nil && p.sizedN == n {
		return p.sized, nil
	}
	l, err := SizedLearner(p.cfg, p.dev, p.state, n)
	if err != nil {
		return nil, fmt.Errorf("the checkpoint's model at n = %d: %v", n, err)
	}
	p.sized, p.sizedN = l, n
	return l, nil
}

// SizedLearner builds spec's networks at size n, on dev, with the parameters of state (a
// learner's MarshalBinary at spec's N), for a model that runs at any N; its graph batch is
// SizedBatchAt(n).
func SizedLearner(spec run.Spec, dev *device.Device, state []byte, n int) (learn.Learner, error) {
	cfg := spec.Config
	cfg.N, cfg.Batch = n, min(cfg.Batch, SizedBatchAt(n))
	sized, err := spec.With(cfg) // up to the task's instance bound
	if err != nil {
		return nil, err
	}
	l, err := learn.NewLearner(sized, dev)
	if err != nil {
		return nil, err
	}
	if err := l.UnmarshalBinary(learn.ResizedState(state, n)); err != nil {
		return nil, err
	}
	return l, nil
}

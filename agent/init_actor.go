package agent

import (
	"fmt"
	"os"
	"path/filepath"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/learn"
	"spg-tui/run"
)

// readInitActor reads the actor parameters of the best checkpoint of the run in cfg.Init (or of
// the checkpoint file cfg.Init), checking that they fit cfg: the start of a run that begins
// from another run's policy, with its own fresh critic. A model that runs at any N (run.Model's
// AnyN) starts from a checkpoint of another size, whose parameters are the same arrays: the
// curriculum of a large N from a policy trained at a small one.
func readInitActor(cfg run.Spec) ([][]float32, error) {
	path := cfg.Init
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, run.BestCheckpoint)
	}
	ck, err := checkpoint.Open(path)
	if err != nil {
		return nil, fmt.Errorf("init: %w", err)
	}
	defer ck.Close()
	src := ck.Header.Config
	if src.Task != cfg.Task || src.Model != cfg.Model || src.Hidden != cfg.Hidden || src.K != cfg.K {
		return nil, fmt.Errorf("init %s: the checkpoint is %s %s n = %d hidden %d k %d, this run %s %s n = %d hidden %d k %d",
			path, src.Task, src.Model, src.N, src.Hidden, src.K, cfg.Task, cfg.Model, cfg.N, cfg.Hidden, cfg.K)
	}
	if src.N != cfg.N && !cfg.Entry.AnyN {
		return nil, fmt.Errorf("init %s: the checkpoint is n = %d, this run n = %d, and %s has layers sized by n",
			path, src.N, cfg.N, cfg.Model)
	}
	// The checkpoint's configuration, read from its file, is resolved as its own. Its learner
	// is the CPU's: it is only read for the actor's parameters, the same bytes on any device.
	srcSpec, err := run.ResolveModel(src)
	if err != nil {
		return nil, fmt.Errorf("init %s: %v", path, err)
	}
	from, err := learn.NewLearner(srcSpec, nil)
	if err != nil {
		return nil, fmt.Errorf("init %s: %v", path, err)
	}
	if err := from.UnmarshalBinary(ck.Learner); err != nil {
		return nil, fmt.Errorf("init %s: %v", path, err)
	}
	actor, ok := learn.ActorParams(from)
	if !ok {
		return nil, fmt.Errorf("init %s: the checkpoint is of %s, which has no SPG actor", path, srcSpec.Entry.Title)
	}
	return actor.Float32s(), nil
}

// setActor copies actor parameters (as readInitActor returns them) into l.
func setActor(l learn.Learner, actor [][]float32) error {
	dst, ok := learn.ActorParams(l)
	if !ok {
		return fmt.Errorf("init: the learner (%T) takes no initial actor", l)
	}
	if len(actor) != len(dst.Vals) {
		return fmt.Errorf("init: the checkpoint's actor has %d parameter arrays, this run's %d", len(actor), len(dst.Vals))
	}
	for i, v := range actor {
		to := dst.Vals[i].Float32s()
		if len(v) != len(to) {
			return fmt.Errorf("init: the checkpoint's actor parameter %d has %d values, this run's %d", i, len(v), len(to))
		}
		copy(to, v)
	}
	return nil
}

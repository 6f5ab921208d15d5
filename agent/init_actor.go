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
// from another run's policy, with its own fresh critic.
func readInitActor(cfg run.Config) ([][]float32, error) {
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
	if src.Task != cfg.Task || src.N != cfg.N || src.Hidden != cfg.Hidden {
		return nil, fmt.Errorf("init %s: the checkpoint is %s n = %d hidden %d, this run %s n = %d hidden %d",
			path, src.Task, src.N, src.Hidden, cfg.Task, cfg.N, cfg.Hidden)
	}
	from, err := learn.NewLearner(src)
	if err != nil {
		return nil, fmt.Errorf("init %s: %v", path, err)
	}
	if err := from.UnmarshalBinary(ck.Learner); err != nil {
		return nil, fmt.Errorf("init %s: %v", path, err)
	}
	actor, ok := learn.ActorParams(from)
	if !ok {
		return nil, fmt.Errorf("init %s: the checkpoint is of %s, which has no SPG actor", path, run.ModelTitle(src))
	}
	return actor.Float32s(), nil
}

// setActor copies actor parameters (as readInitActor returns them) into l.
func setActor(l learn.Learner, actor [][]float32) error {
	dst, ok := learn.ActorParams(l)
	if !ok {
		return fmt.Errorf("init: the learner (%T) takes no initial actor", l)
	}
	for i, v := range actor {
		copy(dst.Vals[i].Float32s(), v)
	}
	return nil
}

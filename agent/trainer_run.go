package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// learnerFactory builds the learner of a configuration: NewLearner, or a fake in tests.
type learnerFactory func(Config) (Learner, error)

// startRun is StartRun with the learner built by newLearner.
func startRun(cfg Config, dir string, newLearner learnerFactory) (*trainer, error) {
	if cfg.Steps < 1 {
		return nil, fmt.Errorf("steps %d: must be >= 1", cfg.Steps)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if _, err := ReplayCapacity(cfg); err != nil {
		return nil, err
	}
	var (
		initial [][]float32
		err     error
	)
	if cfg.Init != "" {
		if initial, err = readInitActor(cfg); err != nil {
			return nil, err
		}
	}
	resumable, err := prepareRunDir(dir, cfg)
	if err != nil {
		return nil, err
	}
	if resumable {
		return resumeRun(dir, cfg.Steps, newLearner)
	}
	l, err := newLearner(cfg)
	if err != nil {
		return nil, err
	}
	if initial != nil {
		if err := setActor(l, initial); err != nil {
			return nil, err
		}
	}
	core, err := newLoop(cfg, l)
	if err != nil {
		return nil, err
	}
	t, err := newTrainer(dir, cfg, core, nil)
	if err != nil {
		return nil, err
	}
	go t.run()
	return t, nil
}

// resumeRun is ResumeRun with the learner built by newLearner.
func resumeRun(dir string, steps int, newLearner learnerFactory) (*trainer, error) {
	ck, err := openCheckpoint(filepath.Join(dir, LastCheckpoint))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no checkpoint to resume from (%s)", dir, LastCheckpoint)
	}
	if err != nil {
		return nil, err
	}
	defer ck.Close()
	h := ck.header
	cfg := h.Config
	if steps > 0 {
		cfg.Steps = steps
	}
	if cfg.Steps < h.Step {
		return nil, fmt.Errorf("steps %d: the run is already at step %d", cfg.Steps, h.Step)
	}
	var res result
	if cfg.Steps == h.Step && readJSON(filepath.Join(dir, ResultFile), &res) == nil && res.Step == h.Step {
		return nil, fmt.Errorf("the run in %s is complete at step %d; pass a larger step count to train on", dir, h.Step)
	}
	l, err := newLearner(cfg)
	if err != nil {
		return nil, err
	}
	if err := l.UnmarshalBinary(ck.learner); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %v", ck.path, err)
	}
	core, err := newLoop(cfg, l)
	if err != nil {
		return nil, err
	}
	if err := ck.readReplay(core.replay); err != nil {
		return nil, err
	}
	if err := core.pcg.UnmarshalBinary(h.RNG); err != nil {
		return nil, fmt.Errorf("checkpoint %s: generator state: %v", ck.path, err)
	}
	if err := truncateMetrics(dir, h.Step); err != nil {
		return nil, err
	}
	start, err := ReadRunConfig(dir)
	if err != nil {
		return nil, err
	}
	if start.Steps != cfg.Steps {
		start.Steps = cfg.Steps
		if err := writeJSONAtomic(filepath.Join(dir, ConfigFile), start); err != nil {
			return nil, err
		}
	}
	t, err := newTrainer(dir, cfg, core, &h)
	if err != nil {
		return nil, err
	}
	go t.run()
	return t, nil
}

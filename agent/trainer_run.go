package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/run"
)

// learnerFactory builds the learner of a resolved configuration on a device: learn.NewLearner,
// or a fake in tests.
type learnerFactory func(run.Spec, *device.Device) (learn.Learner, error)

// startRun is StartRun with the learner built by newLearner on dev.
func startRun(cfg run.Config, dir string, dev *device.Device, newLearner learnerFactory) (*trainer, error) {
	// The initial actor is read before the directory is touched, so a bad --init leaves nothing.
	spec, initial, err := checkStart(cfg)
	if err != nil {
		return nil, err
	}
	if err := run.MakeDir(dir); err != nil {
		return nil, err
	}
	lock, err := run.LockDir(dir)
	if err != nil {
		return nil, err
	}
	t, err := startLocked(spec, dir, dev, newLearner, lock, initial)
	if err != nil {
		lock.Release()
		return nil, err
	}
	return t, nil
}

// CheckStart refuses, in one line, a configuration StartRun would refuse before writing
// anything (its fields, its memory on this machine, its --init actor), so that a caller
// starting many runs can check them all first.
func CheckStart(cfg run.Config) error {
	_, _, err := checkStart(cfg)
	return err
}

// checkStart is CheckStart, returning the resolved configuration, which the start goes on
// with, and the --init actor's parameters (nil without --init).
func checkStart(cfg run.Config) (run.Spec, [][]float32, error) {
	if cfg.Steps < 1 {
		return run.Spec{}, nil, fmt.Errorf("steps %d: must be >= 1", cfg.Steps)
	}
	spec, err := run.Resolve(cfg)
	if err != nil {
		return run.Spec{}, nil, err
	}
	if err := CheckMemory(cfg); err != nil {
		return run.Spec{}, nil, err
	}
	if cfg.Init == "" {
		return spec, nil, nil
	}
	initial, err := readInitActor(spec)
	if err != nil {
		return run.Spec{}, nil, err
	}
	return spec, initial, nil
}

// startLocked is startRun once the directory's lock is held, with spec as checkStart resolved
// it; the trainer releases the lock when the run ends. initial, when not nil, holds the actor's
// starting parameters (--init).
func startLocked(spec run.Spec, dir string, dev *device.Device, newLearner learnerFactory, lock *run.DirLock, initial [][]float32) (*trainer, error) {
	cfg := spec.Config
	if err := run.RemoveOrphans(dir); err != nil {
		return nil, err
	}
	resumable, err := run.PrepareDir(dir, cfg)
	if err != nil {
		return nil, err
	}
	if resumable {
		return resumeLocked(dir, cfg.Steps, dev, newLearner, lock)
	}
	l, err := newLearner(spec, dev)
	if err != nil {
		return nil, err
	}
	if initial != nil {
		if err := setActor(l, initial); err != nil {
			return nil, err
		}
	}
	core, err := newLoop(spec, l)
	if err != nil {
		return nil, err
	}
	t, err := newTrainer(dir, spec, dev, core, nil, nil)
	if err != nil {
		return nil, err
	}
	t.lock, t.start = lock, cfg
	go t.run()
	return t, nil
}

// resumeRun is ResumeRun with the learner built by newLearner on dev.
func resumeRun(dir string, steps int, dev *device.Device, newLearner learnerFactory) (*trainer, error) {
	lock, err := run.LockDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no checkpoint to resume from (%s)", dir, run.LastCheckpoint)
	}
	if err != nil {
		return nil, err
	}
	if err := run.RemoveOrphans(dir); err != nil {
		lock.Release()
		return nil, err
	}
	t, err := resumeLocked(dir, steps, dev, newLearner, lock)
	if err != nil {
		lock.Release()
		return nil, err
	}
	return t, nil
}

// resumeLocked is resumeRun once the directory's lock is held; the trainer releases it when the
// run ends.
func resumeLocked(dir string, steps int, dev *device.Device, newLearner learnerFactory, lock *run.DirLock) (*trainer, error) {
	ck, err := checkpoint.Open(filepath.Join(dir, run.LastCheckpoint))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no checkpoint to resume from (%s)", dir, run.LastCheckpoint)
	}
	if err != nil {
		return nil, err
	}
	defer ck.Close()
	h := ck.Header
	start, restore, err := checkpoint.CheckIdentity(dir, ck.Path, &h)
	if err != nil {
		return nil, err
	}
	cfg := h.Config
	if steps > 0 {
		cfg.Steps = steps
	}
	if cfg.Steps < h.Step {
		return nil, fmt.Errorf("steps %d: the run is already at step %d", cfg.Steps, h.Step)
	}
	var res run.Result
	if cfg.Steps == h.Step && run.ReadJSON(filepath.Join(dir, run.ResultFile), &res) == nil && res.Step == h.Step {
		return nil, fmt.Errorf("the run in %s is complete at step %d; give a larger --steps or --epochs to train on", dir, h.Step)
	}
	spec, err := run.Resolve(cfg)
	if err != nil {
		return nil, err
	}
	l, err := newLearner(spec, dev)
	if err != nil {
		return nil, err
	}
	if err := l.UnmarshalBinary(ck.Learner); err != nil {
		return nil, fmt.Errorf("checkpoint %s: %v", ck.Path, err)
	}
	core, err := newLoop(spec, l)
	if err != nil {
		return nil, err
	}
	if !h.ReplayOmitted {
		if err := ck.ReadReplay(core.replay); err != nil {
			return nil, err
		}
	}
	if err := core.pcg.UnmarshalBinary(h.RNG); err != nil {
		return nil, fmt.Errorf("checkpoint %s: generator state: %v", ck.Path, err)
	}
	// The directory is written only from here on, once nothing refuses the resume.
	if restore || start.Steps != cfg.Steps {
		start.Steps = cfg.Steps
		if err := run.WriteJSONAtomic(filepath.Join(dir, run.ConfigFile), start); err != nil {
			return nil, err
		}
	}
	if err := run.TruncateMetrics(dir, h.Step); err != nil {
		return nil, err
	}
	history, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	t, err := newTrainer(dir, spec, dev, core, &h, history)
	if err != nil {
		return nil, err
	}
	t.lock, t.start, t.early = lock, start, h.ReplayOmitted
	go t.run()
	return t, nil
}

package agent

import (
	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/run"
)

// StartRun validates cfg, creates the run directory dir and starts training in its own
// goroutine, its learner on dev (the command's --device; nil for the CPU). A non-empty dir is
// refused unless it holds a run of the same configuration (Steps aside): then that run
// continues from its checkpoint to cfg.Steps, or starts over if it never wrote one.
func StartRun(cfg run.Config, dir string, dev *device.Device) (run.Engine, error) {
	return startRun(cfg, dir, dev, learn.NewLearner)
}

// ResumeRun reopens the run in dir from checkpoints/last and continues it exactly (parameters,
// optimiser state, replay buffer, generator, data order, schedule and live changes), its
// learner on dev; steps > 0 replaces the run's total. Records after the checkpoint's step (a
// run that died without a checkpoint) are dropped from metrics.jsonl; new ones are appended.
// The records kept from before come first on Records (RunInfo.History of them), so a reader
// sees the whole run.
func ResumeRun(dir string, steps int, dev *device.Device) (run.Engine, error) {
	return resumeRun(dir, steps, dev, learn.NewLearner)
}

// Bench times o.Steps full training steps of cfg on dev (after a few untimed warm-up steps), and
// as many at o.VersusCores cores between them where it is not 0.
func Bench(cfg run.Config, o BenchOptions, dev *device.Device) (BenchResult, error) {
	return bench(cfg, o, dev, learn.NewLearner)
}

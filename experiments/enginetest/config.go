package enginetest

import (
	"spg-tui/envs"
	"spg-tui/run"
)

// TinyConfig is task's default configuration at size n made small enough for tests on the
// scripted engine: small sets and batches, a record every 10 steps and a validation every 50,
// steps steps.
func TinyConfig(task envs.Task, n, steps int) run.Config {
	c := run.DefaultConfig(task, n)
	c.TrainSize, c.Batch, c.Buffer, c.ValSize, c.TestSize = 1000, 10, 100, 10, 10
	c.LogEvery, c.EvalEvery, c.Steps = 10, 50, steps
	return c
}

package experiments

import (
	"spg-tui/envs"
	"spg-tui/run"
)

// SampleScorer solves instances with the sampled decode of the policy a run's validation
// selected: eval.LoadPolicy and Policy.SolveWith in the program.
type SampleScorer func(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error)

// SampledScore is a run's sampled decode on a test set, with the time per instance of each
// decode (wall time, the checkpoint's loading included).
type SampledScore struct {
	Sampling run.Decoding `json:"sampling"`
	// Metric is the task metric of each instance; Mean and Median summarise it.
	Metric       []float64 `json:"metric"`
	Mean, Median float64
	SingleMS     float64 `json:"single_ms_per_instance"`
	SampledMS    float64 `json:"sampled_ms_per_instance"`
}

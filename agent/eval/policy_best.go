package eval

import (
	"spg-tui/agent/device"
	"spg-tui/envs"
	"spg-tui/run"
)

// ScoreBest returns how the console's ablation launcher and experiments score a finished run on
// dev: it solves a test set with the best checkpoint of the run in dir and returns the step that
// checkpoint was taken at.
func ScoreBest(dev *device.Device) func(dir string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
	return func(dir string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
		pol, err := LoadPolicy(dir, dev)
		if err != nil {
			return nil, 0, err
		}
		sols, err := pol.Solve(env, insts)
		return sols, pol.Step(), err
	}
}

// SampleBest returns how experiments score a run's sampled decode on dev: it solves a test set
// with the sampled decode s of the best checkpoint of the run in dir.
func SampleBest(dev *device.Device) func(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error) {
	return func(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error) {
		pol, err := LoadPolicy(dir, dev)
		if err != nil {
			return nil, err
		}
		return pol.SolveWith(env, insts, s)
	}
}

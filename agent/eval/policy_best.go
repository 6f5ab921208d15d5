package eval

import (
	"spg-tui/envs"
	"spg-tui/run"
)

// ScoreBest solves a test set with the best checkpoint of the run in dir and returns the step
// that checkpoint was taken at: how the console's ablation launcher and experiments score a
// finished run.
func ScoreBest(dir string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
	pol, err := LoadPolicy(dir)
	if err != nil {
		return nil, 0, err
	}
	sols, err := pol.Solve(env, insts)
	return sols, pol.Step(), err
}

// SampleBest solves a test set with the sampled decode s of the best checkpoint of the run in
// dir.
func SampleBest(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error) {
	pol, err := LoadPolicy(dir)
	if err != nil {
		return nil, err
	}
	return pol.SolveWith(env, insts, s)
}

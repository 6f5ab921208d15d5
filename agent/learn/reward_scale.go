package learn

import "spg-tui/run"

// RewardScale is what the environment's reward is multiplied by in training: N for the
// plain-sum MWM reward (the environment's is the mean matched distance), else 1.
func RewardScale(cfg *run.Config) float64 {
	if cfg.Reward == run.RewardSum {
		return float64(cfg.N)
	}
	return 1
}

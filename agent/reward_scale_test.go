package agent

import (
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

func TestRewardScaleAndWarmup(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 15)
	if s := learn.RewardScale(&cfg); s != 1 {
		t.Errorf("mean reward scale %g", s)
	}
	cfg.Reward = run.RewardSum
	if s := learn.RewardScale(&cfg); s != 15 {
		t.Errorf("sum reward scale %g, want N = 15", s)
	}
	cfg.CriticWarmup = 10
	if h := learn.HyperAt(devtest.Spec(t, cfg), 9); h.ActorLR != 0 || h.CriticLR != cfg.CriticLR {
		t.Errorf("step 9 of a 10-step warm-up: actor lr %g, critic lr %g", h.ActorLR, h.CriticLR)
	}
	if h := learn.HyperAt(devtest.Spec(t, cfg), 10); h.ActorLR != cfg.ActorLR {
		t.Errorf("after the warm-up: actor lr %g", h.ActorLR)
	}
}

// TestSumRewardReachesTheBuffer: the plain-sum reward is the mean reward times N, instance by
// instance, in what the loop acts on and stores.
func TestSumRewardReachesTheBuffer(t *testing.T) {
	rewards := func(reward string) []float64 {
		cfg := run.DefaultConfig(envs.TaskMWM, 5)
		cfg.Batch, cfg.Buffer, cfg.TrainSize, cfg.Reward = 4, 8, 40, reward
		spec := *devtest.Spec(t, cfg)
		l, err := fakeFactory(fakeOpts{})(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		lp, err := newLoop(spec, l)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lp.step(0, devtest.Spec(t, cfg))
		if err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), res.rewards...)
	}
	mean, sum := rewards(run.RewardMean), rewards(run.RewardSum)
	for i := range mean {
		if d := sum[i] - 5*mean[i]; d > 1e-12 || d < -1e-12 || mean[i] <= 0 {
			t.Errorf("instance %d: sum reward %g, mean reward %g", i, sum[i], mean[i])
		}
	}
}

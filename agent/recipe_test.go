package agent

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

func TestRecipes(t *testing.T) {
	paper, err := parseTrainFlags("--task", "mwm", "--n", "15")
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig(envs.TaskMWM, 15)
	want.Steps = 100 * want.StepsPerEpoch()
	if paper != want || paper.Recipe != RecipePaper || paper.Reward != RewardMean {
		t.Errorf("no recipe:\ngot  %+v\nwant %+v", paper, want)
	}
	if explicit, err := parseTrainFlags("--task", "mwm", "--n", "15", "--recipe", "paper"); err != nil || explicit != paper {
		t.Errorf("--recipe paper differs from the defaults: %+v, %v", explicit, err)
	}

	authors, err := parseTrainFlags("--task", "mwm", "--n", "15", "--recipe", "authors")
	if err != nil {
		t.Fatal(err)
	}
	want.Recipe, want.Reward = RecipeAuthors, RewardSum
	want.ActorLR, want.CriticLR = 1e-4, 1e-3
	want.EpsStart, want.EpsEnd, want.EpsDecay = 0.01, 0.01, 0
	want.Steps = 20 * want.StepsPerEpoch()
	if authors != want {
		t.Errorf("authors:\ngot  %+v\nwant %+v", authors, want)
	}

	// Explicit flags override the recipe, wherever they stand on the command line.
	mixed, err := parseTrainFlags("--actor-lr", "3e-5", "--task", "mwm", "--n", "15", "--recipe", "authors",
		"--reward", "mean", "--epochs", "2", "--critic-warmup", "100")
	if err != nil {
		t.Fatal(err)
	}
	want.ActorLR, want.Reward, want.Steps, want.CriticWarmup = 3e-5, RewardMean, 2*want.StepsPerEpoch(), 100
	if mixed != want {
		t.Errorf("authors with flags:\ngot  %+v\nwant %+v", mixed, want)
	}
	if sorted, err := parseTrainFlags("--task", "sort", "--n", "5", "--recipe", "authors"); err != nil || sorted.Reward != RewardMean {
		t.Errorf("authors on sort: reward %q, %v (the plain sum is MWM's)", sorted.Reward, err)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--recipe", "best"}, `recipe "best": must be one of paper, authors`},
		{[]string{"--reward", "max"}, `reward "max"`},
		{[]string{"--task", "sort", "--n", "5", "--reward", "sum"}, "only mwm"},
		{[]string{"--critic-warmup", "-1"}, "critic-warmup"},
	} {
		if _, err := parseTrainFlags(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

func TestRewardScaleAndWarmup(t *testing.T) {
	cfg := DefaultConfig(envs.TaskMWM, 15)
	if s := rewardScale(&cfg); s != 1 {
		t.Errorf("mean reward scale %g", s)
	}
	cfg.Reward = RewardSum
	if s := rewardScale(&cfg); s != 15 {
		t.Errorf("sum reward scale %g, want N = 15", s)
	}
	cfg.CriticWarmup = 10
	if h := hyperAt(&cfg, 9); h.ActorLR != 0 || h.CriticLR != cfg.CriticLR {
		t.Errorf("step 9 of a 10-step warm-up: actor lr %g, critic lr %g", h.ActorLR, h.CriticLR)
	}
	if h := hyperAt(&cfg, 10); h.ActorLR != cfg.ActorLR {
		t.Errorf("after the warm-up: actor lr %g", h.ActorLR)
	}
}

// TestSumRewardReachesTheBuffer: the plain-sum reward is the mean reward times N, instance by
// instance, in what the loop acts on and stores.
func TestSumRewardReachesTheBuffer(t *testing.T) {
	rewards := func(reward string) []float64 {
		cfg := DefaultConfig(envs.TaskMWM, 5)
		cfg.Batch, cfg.Buffer, cfg.TrainSize, cfg.Reward = 4, 8, 40, reward
		l, err := fakeFactory(fakeOpts{})(cfg)
		if err != nil {
			t.Fatal(err)
		}
		lp, err := newLoop(cfg, l)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lp.step(0, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), res.rewards...)
	}
	mean, sum := rewards(RewardMean), rewards(RewardSum)
	for i := range mean {
		if d := sum[i] - 5*mean[i]; d > 1e-12 || d < -1e-12 || mean[i] <= 0 {
			t.Errorf("instance %d: sum reward %g, mean reward %g", i, sum[i], mean[i])
		}
	}
}

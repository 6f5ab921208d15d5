package run

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

	// best picks its network per task; flags still win.
	for _, tc := range []struct {
		args  []string
		model string
		lr    float64
	}{
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best"}, ModelPairwise, 1e-4},
		{[]string{"--task", "sort", "--n", "5", "--recipe", "best", "--actor-lr", "3e-4"}, ModelFactored, 3e-4},
		{[]string{"--task", "tsp", "--n", "5", "--recipe", "best"}, ModelSuccessor, 1e-4},
		{[]string{"--task", "tsp", "--n", "5", "--recipe", "best", "--model", ModelFactored}, ModelFactored, 1e-4},
		{[]string{"--task", "sort", "--n", "5", "--recipe", "best", "--model", ModelPairwise}, ModelPairwise, 1e-4},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--model", "spg-matching", "--critic", "bilinear"}, "spg-matching", 1e-4},
	} {
		c, err := parseTrainFlags(tc.args...)
		if err != nil || c.Model != tc.model || c.ActorLR != tc.lr || c.Recipe != RecipeBest {
			t.Errorf("%v: model %q, actor LR %g, recipe %q, %v; want %q, %g", tc.args, c.Model, c.ActorLR, c.Recipe, err, tc.model, tc.lr)
		}
	}

	// best runs as long as it was measured per task; --steps and --epochs win.
	for _, tc := range []struct {
		args  []string
		steps func(Config) int
	}{
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "best"}, func(Config) int { return 1000 }},
		{[]string{"--task", "sort", "--n", "50", "--recipe", "best"}, func(Config) int { return 1000 }},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, func(Config) int { return 2000 }},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best"}, func(Config) int { return 1000 }},
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "best", "--steps", "77"}, func(Config) int { return 77 }},
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "best", "--epochs", "2"}, func(c Config) int { return 2 * c.StepsPerEpoch() }},
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "authors"}, func(c Config) int { return 20 * c.StepsPerEpoch() }},
	} {
		c, err := parseTrainFlags(tc.args...)
		if want := tc.steps(c); err != nil || c.Steps != want {
			t.Errorf("%v: %d steps, %v; want %d", tc.args, c.Steps, err, want)
		}
	}

	// best halves sorting's rates more slowly; every task keeps the paper's tau; --tau still
	// wins.
	for _, tc := range []struct {
		args       []string
		tau        float64
		decayEvery int
	}{
		{[]string{"--task", "sort", "--n", "20", "--recipe", "best"}, 0.05, 250},
		{[]string{"--task", "sort", "--n", "50", "--recipe", "best"}, 0.05, 250},
		{[]string{"--task", "sort", "--n", "20", "--recipe", "best", "--tau", "0.01"}, 0.01, 250},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best"}, 0.05, 250},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--lr-decay-every", "500"}, 0.05, 500},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, 0.05, 1000},
	} {
		c, err := parseTrainFlags(tc.args...)
		if err != nil || c.Tau != tc.tau || c.LRDecayEvery != tc.decayEvery {
			t.Errorf("%v: tau %g, lr-decay-every %d, %v; want %g, %d", tc.args, c.Tau, c.LRDecayEvery, err, tc.tau, tc.decayEvery)
		}
	}

	// best keeps recent transitions on tsp and sort and drops the critic penalty on tsp, mwm and
	// gm; flags still win.
	for _, tc := range []struct {
		args    []string
		penalty bool
		buffer  int
	}{
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, false, 25600},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--no-critic-penalty=false", "--buffer", "1000"}, true, 1000},
		{[]string{"--task", "sort", "--n", "20", "--recipe", "best"}, true, 25600},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best"}, false, 1000000},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--no-critic-penalty=false"}, true, 1000000},
		{[]string{"--task", "gm", "--n", "5", "--recipe", "best"}, false, 1000000},
		{[]string{"--task", "gm", "--n", "5", "--recipe", "paper"}, true, 1000000},
	} {
		c, err := parseTrainFlags(tc.args...)
		if err != nil || c.CriticPenalty != tc.penalty || c.Buffer != tc.buffer {
			t.Errorf("%v: critic penalty %v, buffer %d, %v; want %v, %d", tc.args, c.CriticPenalty, c.Buffer, err, tc.penalty, tc.buffer)
		}
	}

	// best's tsp actor slows with N: 1e-4 up to 20, 3e-5 at 50 (the rates measured), between
	// them in between; --actor-lr wins.
	for _, tc := range []struct {
		args []string
		lr   float64
	}{
		{[]string{"--task", "tsp", "--n", "10", "--recipe", "best"}, 1e-4},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, 1e-4},
		{[]string{"--task", "tsp", "--n", "50", "--recipe", "best"}, 3e-5},
		{[]string{"--task", "tsp", "--n", "50", "--recipe", "best", "--actor-lr", "1e-4"}, 1e-4},
		{[]string{"--task", "mwm", "--n", "50", "--recipe", "best"}, 1e-4},
	} {
		if c, err := parseTrainFlags(tc.args...); err != nil || c.ActorLR != tc.lr {
			t.Errorf("%v: actor LR %g, %v; want %g", tc.args, c.ActorLR, err, tc.lr)
		}
	}
	if lr := bestTSPActorLR(30); !(lr < 1e-4 && lr > 3e-5) {
		t.Errorf("best's tsp actor LR at N = 30: %g, want between 3e-5 and 1e-4", lr)
	}

	// best's actor ascends a slow target critic on tsp and gm; --target-critic wins.
	for _, tc := range []struct {
		args []string
		rate float64
	}{
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, 0.01},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best"}, 0.01},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best", "--target-critic", "0"}, 0},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "paper"}, 0},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--target-critic", "0"}, 0},
		{[]string{"--task", "mwm", "--n", "20", "--recipe", "best"}, 0},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "paper"}, 0},
	} {
		if c, err := parseTrainFlags(tc.args...); err != nil || c.TargetCritic != tc.rate {
			t.Errorf("%v: target critic %g, %v; want %g", tc.args, c.TargetCritic, err, tc.rate)
		}
	}

	// soft is stored as no setting, so its config is that of runs written before the flag.
	for at, want := range map[string]string{ActorAtSoft: "", ActorAtHard: ActorAtHard} {
		if c, err := parseTrainFlags("--task", "tsp", "--n", "5", "--actor-at", at); err != nil || c.ActorAt != want {
			t.Errorf("--actor-at %s: %q, %v; want %q", at, c.ActorAt, err, want)
		}
	}
	// best ascends the tsp critic at the rounded action; soft given explicitly wins, the other
	// tasks keep soft.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best"}, ActorAtHard},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--model", ModelAttention}, ActorAtHard},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--actor-at", "soft"}, ""},
		{[]string{"--task", "sort", "--n", "20", "--recipe", "best"}, ""},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best"}, ""},
	} {
		if c, err := parseTrainFlags(tc.args...); err != nil || c.ActorAt != tc.want {
			t.Errorf("%v: actor-at %q, %v; want %q", tc.args, c.ActorAt, err, tc.want)
		}
	}
	// best explores sort at a constant 0.3 and rounds it by log M; other tasks keep M.
	if c, err := parseTrainFlags("--task", "sort", "--n", "20", "--recipe", "best"); err != nil || c.EpsStart != 0.3 || c.EpsEnd != 0.3 || c.Rounding != RoundingLog {
		t.Errorf("best on sort: epsilon %g to %g, rounding %q, %v; want 0.3, 0.3, %q", c.EpsStart, c.EpsEnd, c.Rounding, err, RoundingLog)
	}
	if c, err := parseTrainFlags("--task", "tsp", "--n", "20", "--recipe", "best"); err != nil || c.Rounding != RoundingLog {
		t.Errorf("best on tsp: rounding %q, %v; want %q", c.Rounding, err, RoundingLog)
	}
	if c, err := parseTrainFlags("--task", "tsp", "--n", "20", "--recipe", "best", "--rounding", "m"); err != nil || c.Rounding != "" {
		t.Errorf("best on tsp with --rounding m: rounding %q, %v; want the paper's (\"\")", c.Rounding, err)
	}
	if c, err := parseTrainFlags("--task", "mwm", "--n", "5", "--recipe", "best"); err != nil || c.Rounding != "" {
		t.Errorf("best on mwm: rounding %q, %v; want the paper's", c.Rounding, err)
	}

	// best validates mwm every 50 steps, gm every 100 and tsp every 250 unless --eval-every says otherwise,
	// longer or shorter; sort keeps the default.
	for _, tc := range []struct {
		args  []string
		every int
	}{
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best"}, 50},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--eval-every", "500"}, 500},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--eval-every", "20"}, 20},
		{[]string{"--task", "mwm", "--n", "5"}, 500},
		{[]string{"--task", "tsp", "--n", "5", "--recipe", "best"}, 250},
		{[]string{"--task", "tsp", "--n", "5", "--recipe", "best", "--eval-every", "1000"}, 1000},
		{[]string{"--task", "sort", "--n", "5", "--recipe", "best"}, 500},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best"}, 100},
		{[]string{"--task", "gm", "--n", "20", "--recipe", "best", "--eval-every", "300"}, 300},
	} {
		if c, err := parseTrainFlags(tc.args...); err != nil || c.EvalEvery != tc.every {
			t.Errorf("%v: eval-every %d, %v; want %d", tc.args, c.EvalEvery, err, tc.every)
		}
	}

	// --val-samples 0 is accepted, as 1 is: the single decode.
	for _, k := range []string{"0", "1"} {
		if c, err := parseTrainFlags("--val-samples", k); err != nil || c.ValSamples != 0 {
			t.Errorf("--val-samples %s: %d, %v; want the single decode", k, c.ValSamples, err)
		}
	}
	if c, err := parseTrainFlags("--task", "mwm", "--n", "5", "--model", ModelPairwise); err != nil || c.Critic != CriticBilinear {
		t.Errorf("--model %s alone: critic %q, %v; want the model's bilinear critic", ModelPairwise, c.Critic, err)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--recipe", "fastest"}, `recipe "fastest": must be one of paper, authors, best`},
		{[]string{"--task", "mwm", "--n", "5", "--recipe", "best", "--critic", "paper"}, "must be bilinear for spg-pairwise"},
		{[]string{"--reward", "max"}, `reward "max"`},
		{[]string{"--task", "sort", "--n", "5", "--reward", "sum"}, "only mwm"},
		{[]string{"--critic-warmup", "-1"}, "critic-warmup"},
		{[]string{"--critic-updates", "0"}, "critic-updates 0: must be in [1, 64]"},
		{[]string{"--critic-updates", "65"}, "critic-updates 65: must be in [1, 64]"},
		{[]string{"--val-samples", "-1"}, "val-samples -1: must be in [0, 4096] (0 and 1: the single decode only)"},
		{[]string{"--val-samples", "4097"}, "val-samples 4097: must be in [0, 4096]"},
		{[]string{"--target-critic", "-0.1"}, "target-critic -0.1: must be in [0, 1]"},
		{[]string{"--target-critic", "1.5"}, "target-critic 1.5: must be in [0, 1]"},
		{[]string{"--actor-at", "medium"}, `actor-at "medium": must be soft or hard`},
		{[]string{"--task", "tsp", "--n", "5", "--model", "pn-ac", "--actor-at", "hard"}, "actor-at hard: PN-AC has no critic to ascend"},
		{[]string{"--task", "tsp", "--n", "5", "--model", "spg-random", "--actor-at", "hard"}, "actor-at hard: SPG+Random has no critic to ascend"},
	} {
		if _, err := parseTrainFlags(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestWithRecipe switches a configuration between recipes, keeping what no recipe sets, and
// the run's validation interval unless the recipe validates more often.
func TestWithRecipe(t *testing.T) {
	c := DefaultConfig(envs.TaskMWM, 10)
	c.Seed, c.EvalEvery = 7, 200
	best, err := WithRecipe(c, RecipeBest)
	if err != nil || best.Model != ModelPairwise || best.Critic != CriticBilinear || best.Hidden != 64 || best.Seed != 7 || best.EvalEvery != 50 || best.Recipe != RecipeBest || best.CriticPenalty {
		t.Fatalf("best: %+v, %v", best, err)
	}
	if err := best.Validate(); err != nil {
		t.Errorf("best does not validate: %v", err)
	}
	c.EvalEvery = 20
	if got, err := WithRecipe(c, RecipeBest); err != nil || got.EvalEvery != 20 {
		t.Errorf("best from a run validated every 20 steps: every %d, %v; want 20", got.EvalEvery, err)
	}
	sort := DefaultConfig(envs.TaskSort, 10)
	sort.EvalEvery = 200
	if got, err := WithRecipe(sort, RecipeBest); err != nil || got.EvalEvery != 200 {
		t.Errorf("best on sort: every %d, %v; want the run's 200", got.EvalEvery, err)
	}
	paper, err := WithRecipe(best, RecipePaper)
	want := DefaultConfig(envs.TaskMWM, 10)
	want.Seed, want.EvalEvery = 7, 50
	if err != nil || paper != want {
		t.Errorf("back to paper: %+v, %v; want %+v", paper, err, want)
	}
	if _, err := WithRecipe(c, "fastest"); err == nil {
		t.Error("WithRecipe accepted an unknown recipe")
	}
}

// TestWithRecipeKeepsTheData checks that a change of recipe keeps the run's data spec (the
// console's same-task recipe switch used to fall back to the task's default data).
func TestWithRecipeKeepsTheData(t *testing.T) {
	c := DefaultConfig(envs.TaskSort, 10)
	c.Data = "perm"
	for _, name := range RecipeNames() {
		got, err := WithRecipe(c, name)
		if err != nil || got.Data != "perm" {
			t.Errorf("recipe %s: data %q, %v; want perm", name, got.Data, err)
		}
	}
}

// best on tsp from --init above N = 20 is a curriculum stage: epsilon 0.3, a 250-step critic
// warm-up, validation every 50 steps. Flags still win, and a run at N = 20 or without --init is
// the plain recipe's.
func TestBestTSPCurriculumStage(t *testing.T) {
	parse := func(args ...string) Config {
		t.Helper()
		c, err := parseTrainFlags(append([]string{"--task", "tsp", "--recipe", "best"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain := parse("--n", "50")
	want := plain
	want.Init = "runs/tsp20"
	want.EpsStart, want.EpsEnd, want.EpsDecay = 0.3, 0.3, 0
	want.CriticWarmup, want.EvalEvery = 250, 50
	if got := parse("--n", "50", "--init", "runs/tsp20"); got != want {
		t.Errorf("TSP-50 from --init:\ngot  %+v\nwant %+v", got, want)
	}
	if plain.EpsStart != 0.01 || plain.CriticWarmup != 0 || plain.EvalEvery != bestTSPEvalEvery {
		t.Errorf("TSP-50 without --init: epsilon %v, warm-up %d, validation every %d", plain.EpsStart, plain.CriticWarmup, plain.EvalEvery)
	}
	want20 := parse("--n", "20")
	want20.Init = "runs/tsp10"
	if got := parse("--n", "20", "--init", "runs/tsp10"); got != want20 {
		t.Errorf("TSP-20 from --init:\ngot  %+v\nwant %+v", got, want20)
	}
	flags := parse("--n", "100", "--init", "runs/tsp50", "--eps-start", "0.1", "--eps-end", "0.1", "--eval-every", "100", "--critic-warmup", "0")
	if flags.EpsStart != 0.1 || flags.EpsEnd != 0.1 || flags.EvalEvery != 100 || flags.CriticWarmup != 0 {
		t.Errorf("flags over the stage: epsilon %v to %v, validation every %d, warm-up %d", flags.EpsStart, flags.EpsEnd, flags.EvalEvery, flags.CriticWarmup)
	}
}

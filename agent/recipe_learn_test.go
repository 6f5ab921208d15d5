package agent

import (
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestBestRecipeBeatsPaper trains MWM-6 for 600 steps of batch 32 with the paper's recipe and
// with "best" (a small network for both): best must end far ahead of the paper's and at least
// level with the greedy matcher, the reference the paper's SPG never reaches.
func TestBestRecipeBeatsPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	test, _, refs := trainRecipes(t, envs.TaskMWM, 6, 600)
	best, paper, greedy := test[run.RecipeBest], test[run.RecipePaper], refs["greedy"]
	if best < paper+0.1 || best < greedy {
		t.Errorf("after 600 steps on MWM-6: best %.4f, paper %.4f, greedy %.4f; want best >= paper + 0.1 and >= greedy", best, paper, greedy)
	}
}

// TestBestRecipeBeatsPaperOnTSP trains TSP-8 for 1,000 steps of batch 32 with both recipes: best's
// tours must end at least 10% shorter than the paper's and 5% shorter than its own untrained
// policy's (which already orders the cities roughly around their centroid).
func TestBestRecipeBeatsPaperOnTSP(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	test, untrained, _ := trainRecipes(t, envs.TaskTSP, 8, 1000)
	best, paper, start := test[run.RecipeBest], test[run.RecipePaper], untrained[run.RecipeBest]
	if best > 0.9*paper || best > 0.95*start {
		t.Errorf("after 1,000 steps on TSP-8: best %.4f (untrained %.4f), paper %.4f; want best <= 0.9 paper and <= 0.95 untrained", best, start, paper)
	}
}

// trainRecipes trains task at size n for steps steps of batch 32 under the paper's recipe and
// under best (hidden 16 for both), and returns each one's test metric and its untrained policy's
// (step-0 validation), and the validation set's references.
func trainRecipes(t *testing.T, task envs.Task, n, steps int) (test, untrained, refs map[string]float64) {
	t.Helper()
	test, untrained = map[string]float64{}, map[string]float64{}
	for _, name := range []string{run.RecipePaper, run.RecipeBest} {
		base := run.DefaultConfig(task, n)
		base.Batch, base.Steps = 32, steps
		base.TrainSize, base.ValSize, base.TestSize, base.Buffer = 12800, 200, 200, 5000
		base.EvalEvery, base.LogEvery = 50, 50
		cfg, err := run.WithRecipe(base, name)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Hidden = 16
		dir := trainToEnd(t, cfg)
		for _, r := range readMetrics(t, dir) {
			if r.Event != nil && r.Event.Event == run.EventStart {
				refs = r.Event.References
			}
			if r.Eval != nil {
				t.Logf("%s: %s at step %d: %s %.4f", name, r.Eval.Split, r.Step, r.Eval.MetricName, r.Eval.Metric)
				switch {
				case r.Eval.Split == "test":
					test[name] = r.Eval.Metric
				case r.Step == 0:
					untrained[name] = r.Eval.Metric
				}
			}
		}
	}
	return test, untrained, refs
}

// TestStartStatesTheRecipesChoiceByData: a run whose model best chose by --data (spg-gm-spectral on
// gm's regular graphs) says so in its start record; one on the default data does not.
func TestStartStatesTheRecipesChoiceByData(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{{"regular:d=3", true}, {envs.DefaultData(envs.TaskGM), false}} {
		base := tinyConfig(envs.TaskGM, 6)
		base.Data, base.Steps = tc.data, 2
		cfg, err := run.WithRecipe(base, run.RecipeBest)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Hidden = 4
		recs := readMetrics(t, trainToEnd(t, cfg))
		msg := recs[0].Event.Message
		if got := strings.Contains(msg, "recipe best on regular graphs: spg-gm-spectral, the live critic"); got != tc.want {
			t.Errorf("data %s: start record %q; want the recipe's choice stated: %v", tc.data, msg, tc.want)
		}
	}
}

package agent

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestBestRecipeBeatsPaper trains MWM-6 for 400 steps of batch 32 with the paper's recipe and
// with "best" (a small network for both): best must end far ahead of the paper's and at least
// level with the greedy matcher, the reference the paper's SPG never reaches.
func TestBestRecipeBeatsPaper(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	test := map[string]float64{}
	var greedy float64
	for _, name := range []string{run.RecipePaper, run.RecipeBest} {
		base := run.DefaultConfig(envs.TaskMWM, 6)
		base.Batch, base.Steps = 32, 400
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
				greedy = r.Event.References["greedy"]
			}
			if r.Eval != nil {
				t.Logf("%s: %s at step %d: optimality ratio %.4f", name, r.Eval.Split, r.Step, r.Eval.Metric)
				if r.Eval.Split == "test" {
					test[name] = r.Eval.Metric
				}
			}
		}
	}
	if best, paper := test[run.RecipeBest], test[run.RecipePaper]; best < paper+0.1 || best < greedy {
		t.Errorf("after 400 steps on MWM-6: best %.4f, paper %.4f, greedy %.4f; want best >= paper + 0.1 and >= greedy", best, paper, greedy)
	}
}

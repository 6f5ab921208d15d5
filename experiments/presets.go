package experiments

import (
	"fmt"

	"spg-tui/envs"
	"spg-tui/run"
)

// The paper's numbers the reports set beside ours.
var (
	// paperSort is Table 1: mean ± sd test Kendall tau, by model and N.
	paperSort = map[string]map[int]string{
		run.ModelPNAC:       {20: "1.0 ± 0", 50: "0.998 ± 0.001"},
		run.ModelSequential: {20: "0.998 ± 0.002", 50: "0.984 ± 0.006"},
	}
	// paperMWM is Table 2: median test optimality ratio, by model and N.
	paperMWM = map[string]map[int]string{
		run.ModelPNACMatching: {15: "0.714", 20: "0.708", 25: "0.703"},
		run.ModelACMatching:   {15: "0.935", 20: "0.897", 25: "0.725"},
		run.ModelRandom:       {15: "0.698", 20: "0.707", 25: "0.698"},
		run.ModelMatching:     {15: "0.904", 20: "0.895", 25: "0.889"},
	}
	// paperTSP is the TSP-20 table: mean tour length, by model or solver.
	paperTSP = map[string]string{
		"exact": "3.83", run.ModelPNAC: "3.89", "christofides": "4.30", run.ModelSequential: "4.62",
	}
)

// paperExplorationF is the paper's variance-ratio test of its exploration study.
const paperExplorationF = "F = 4.402, N1 = N2 = 10, p = 0.019"

// ablationEpochs is the length of the paper's MWM-10 studies: Figure 2 shows the critic after 5
// to 20 epochs and the exploration study compares rewards after 20; the paper gives no length
// for Figure 3b and the same is used.
const ablationEpochs = 20

// Presets returns the paper's reproductions, then spg-tui's own experiments (sizes), in the order
// `experiment list` shows them.
func Presets() []Preset {
	return []Preset{
		{
			Name: "sort", Reproduces: "Table 1: mean ± sd test Kendall tau of SPG+Sequential and PN-AC, Sort-20 and Sort-50",
			Arms:   modelArms(envs.TaskSort, []int{20, 50}, []string{run.ModelPNAC, run.ModelSequential}),
			report: reportSort,
		},
		{
			Name: "mwm", Reproduces: "Table 2: median test optimality ratio of PN-AC+Matching, AC+Matching, SPG+Random and SPG+Matching, MWM-15/20/25; Figure 4: reward curves of SPG+Matching vs AC+Matching (68% and 95% bands)",
			Arms:   modelArms(envs.TaskMWM, []int{15, 20, 25}, []string{run.ModelPNACMatching, run.ModelACMatching, run.ModelRandom, run.ModelMatching}),
			report: reportMWM,
		},
		{
			Name: "tsp", Reproduces: "the TSP-20 table: mean test tour length of SPG+Sequential and PN-AC beside Held-Karp, Christofides, 2-opt, farthest insertion and nearest neighbour on the same test set",
			Arms:   modelArms(envs.TaskTSP, []int{20}, []string{run.ModelPNAC, run.ModelSequential}),
			report: reportTSP,
		},
		ablationPreset("penalty", "critic-penalty", []string{"no-critic-penalty"},
			"Figure 2: hard vs soft Q of 100 fixed states after 5, 10, 15, 20 epochs with and without the critic penalty; Figure 3a: reward curves (68% and 95% bands); MWM-10", reportPenalty),
		ablationPreset("tau", "tau", []string{"tau"},
			"Figure 3b: reward curves for tau in {1, 0.5, 0.1, 0.05, 0.01} (68% bands); MWM-10", reportTau),
		ablationPreset("exploration", "exploration", []string{"eps-start", "eps-decay", "no-exploration"},
			"the exploration study: epsilon 1 decaying 0.05 or 0.10 per epoch vs none, 20 epochs, and the F-test of the final rewards' variances; MWM-10", reportExploration),
		{
			Name: "sizes", Reproduces: fmt.Sprintf("one model for many sizes (not in the paper): `best`'s %s on MWM and %s on TSP trained at N = 20 and tested at N = 10, 20, 50 and 100 (MWM: optimality ratio against the Hungarian optimum; TSP: tour length against Held-Karp up to N = 20, above it the best known tour of 2-opt + or-opt restarts)",
				bestModel(envs.TaskMWM), bestModel(envs.TaskTSP)),
			Arms:   sizeArms(),
			report: reportSizes,
		},
	}
}

// bestModel is the model the best recipe trains on task at N = 20, named from the recipe so
// that the preset's description cannot drift from its arms.
func bestModel(task envs.Task) string {
	c, err := run.WithRecipe(run.DefaultConfig(task, 20), run.RecipeBest)
	if err != nil {
		panic("experiments: " + err.Error()) // the recipe exists
	}
	return c.Model
}

// modelArms is one arm per size and model, the paper's settings and the task's budget.
func modelArms(task envs.Task, sizes []int, models []string) []Arm {
	var arms []Arm
	name := envs.MustFacts(task).Name
	for _, n := range sizes {
		for _, m := range models {
			arms = append(arms, Arm{
				Label: fmt.Sprintf("%s · %s-%d", modelTitle(m), name, n), Model: m, Task: task, N: n,
				Epochs: float64(run.DefaultEpochs(task)),
			})
		}
	}
	return arms
}

// modelTitle is the catalogue's title of the model called name.
func modelTitle(name string) string { return run.ModelOf(run.Config{Model: name}).Title }

// ablationPreset is one of the console's ablations (Builtin) on MWM-10 for the paper's 20
// epochs: the console and the command line run the same variants.
func ablationPreset(name, ablation string, varies []string, reproduces string, report func(*Results, *reportWriter) error) Preset {
	a, ok := Lookup(ablation)
	if !ok {
		panic("experiments: no ablation " + ablation)
	}
	p := Preset{Name: name, Reproduces: reproduces, Varies: varies, report: report}
	for _, v := range a.Variants {
		p.Arms = append(p.Arms, Arm{Label: v.Name, Model: run.ModelMatching, Task: envs.TaskMWM, N: 10,
			Epochs: ablationEpochs, Apply: v.Apply})
	}
	return p
}

// TransferTestSize is the number of test instances at each of an arm's TestSizes.
const TransferTestSize = 200

// transferSizes are the sizes the sizes preset tests at.
var transferSizes = []int{10, 20, 50, 100}

// sizeArms are the sizes preset's arms: the best recipe's models that run at any N, trained at
// N = 20 for best's own run lengths (TSP on 200 validation and test instances, whose Held-Karp
// references are slow), then tested at every transferSizes.
func sizeArms() []Arm {
	best := func(c *run.Config) {
		r, err := run.WithRecipe(*c, run.RecipeBest)
		if err != nil {
			panic("experiments: " + err.Error()) // the recipe exists
		}
		*c = r
		if c.Task == envs.TaskTSP {
			c.ValSize, c.TestSize = 200, 200
		}
	}
	steps := func(task envs.Task) int { return run.RecipeSteps(run.RecipeBest, run.DefaultConfig(task, 20)) }
	return []Arm{
		{Label: "SPG+Pairwise · MWM-20", Model: run.ModelPairwise, Task: envs.TaskMWM, N: 20, Steps: steps(envs.TaskMWM), Apply: best, TestSizes: transferSizes},
		{Label: "SPG+Successor · TSP-20", Model: run.ModelSuccessor, Task: envs.TaskTSP, N: 20, Steps: steps(envs.TaskTSP), Apply: best, TestSizes: transferSizes},
	}
}

package run

import (
	"fmt"
	"math"
	"strings"

	"spg-tui/envs"
	"spg-tui/envs/gm"
)

// Recipe names and reward scales (Config.Recipe, Config.Reward).
const (
	RecipePaper   = "paper"
	RecipeAuthors = "authors"
	RecipeBest    = "best"

	RewardMean = "mean"
	RewardSum  = "sum"
)

// recipe is a named set of training defaults: apply changes a DefaultConfig into the recipe's,
// then its entry for the task (tasks) tunes it; its run length is the entry's steps where set,
// else epochs (0: DefaultEpochs of the task).
type recipe struct {
	name   string
	doc    string
	epochs int
	apply  func(*Config)
	// tasks are what the recipe sets for one task, by task: the one table of a recipe's
	// per-task values.
	tasks map[envs.Task]taskRecipe
}

// taskRecipe is what a recipe sets for one task beyond what it sets for every task.
type taskRecipe struct {
	// steps is the run length the recipe was measured at, where a length in epochs of the
	// task's training set would not fit its schedule (0: epochs).
	steps int
	// model is the recipe's network ("": the task's default, the paper's architecture).
	model string
	// annealEvery, where set, anneals the rates past steps: from the measured length on they
	// halve every annealEvery steps (0: no anneal). The anneal starts at steps itself, so a
	// change of the measured length moves it too.
	annealEvery int
	// tune changes the recipe's values for the task, after apply (nil: nothing).
	tune func(c *Config)
	// data are what the recipe sets on kinds of the task's data where another model wins
	// there, the first that matches the run's --data applying over the rest.
	data []dataRecipe
}

// dataRecipe is what a recipe sets for one kind of a task's data over its taskRecipe: the model
// and settings measured best there.
type dataRecipe struct {
	// kind names the data where the choice is stated: "regular graphs".
	kind string
	// matches reports whether the data spec at size n is of the kind.
	matches func(n int, spec string) bool
	// model is the network on that data.
	model string
	// settings word what tune sets, where the choice is stated.
	settings string
	// tune changes the recipe's values for the data, after the task's tune.
	tune func(c *Config)
}

// forData is the entry of t.data that c's data matches, or nil.
func (t taskRecipe) forData(c Config) *dataRecipe {
	for i, d := range t.data {
		if d.matches(c.N, c.Data) {
			return &t.data[i]
		}
	}
	return nil
}

// model is the network the recipe trains on c's task and data ("": the task's default).
func (r *recipe) model(c Config) string {
	t := r.tasks[c.Task]
	name := t.model
	if d := t.forData(c); d != nil {
		name = d.model
	}
	if m, err := ModelNamed(name); err == nil && m.Supports(c.Task) {
		return m.Name
	}
	return ""
}

// set changes c, a DefaultConfig, into the recipe's values for c's task.
func (r *recipe) set(c *Config) {
	r.apply(c)
	t := r.tasks[c.Task]
	if t.tune != nil {
		t.tune(c)
	}
	if d := t.forData(*c); d != nil {
		d.tune(c)
	}
	if t.annealEvery > 0 {
		c.LRAnnealFrom, c.LRAnnealEvery = t.steps, t.annealEvery
	}
}

// recipes lists the recipes, the default first. A new recipe is one more entry.
var recipes = []recipe{
	{
		name:  RecipePaper,
		doc:   "the paper's Table 3",
		apply: func(*Config) {},
	},
	{
		// The authors' scripts/run_spg.sh and train_spg.py: their epsilon only decays while
		// above 0.01, so starting at 0.01 it stays there; the MWM reward of envs/mwm2D_task.py
		// is the plain sum of matched distances.
		name:   RecipeAuthors,
		doc:    "the authors' run_spg.sh",
		epochs: 20,
		apply: func(c *Config) {
			c.ActorLR, c.CriticLR = 1e-4, 1e-3
			c.LRDecay, c.LRDecayEvery = 0.95, 5000
			c.EpsStart, c.EpsEnd, c.EpsDecay = 0.01, 0.01, 0
			c.K, c.Tau, c.SinkhornIters, c.Batch, c.ClipNorm = 2, 0.05, 10, 128, 1
			if f, err := envs.FactsOf(c.Task); err == nil && f.SumReward {
				c.Reward = RewardSum
			}
		},
	},
	{
		// The project's best-known recipe (README, "Recipes"): equivariant actors with pair-MLP
		// critics, the authors' learning rates halved every 500 steps, constant small epsilon.
		name: RecipeBest,
		// What it sets on each task is listed in docs/commands.md (train, "--recipe best").
		doc:    "spg-tui's own learner, tuned per task",
		epochs: 5,
		tasks:  bestTasks,
		apply: func(c *Config) {
			// The rates halve every 500 steps: at constant rates the actor learns to exploit
			// the critic after its peak (step 250-500) and the policy drifts down (README,
			// "Recipes").
			c.ActorLR, c.CriticLR = 1e-4, 1e-3
			c.LRDecay, c.LRDecayEvery = 0.5, 500
			c.EpsStart, c.EpsEnd, c.EpsDecay = 0.01, 0.01, 0
			c.K, c.Tau, c.SinkhornIters, c.Batch, c.ClipNorm = 2, 0.05, 10, 128, 1
			c.Hidden, c.Critic = 32, CriticBilinear
		},
	},
}

// bestTasks are the best recipe's networks, run lengths and changes, by task.
//
// The run lengths are those of the measured runs (docs/recipes.md). Five epochs of mwm's
// training set are 19,530 steps, past step 1,000 the halvings every 250 steps leave rates below
// 1/16 of the start's, so nearly all of them would change nothing. On gm five epochs (19,530
// steps, about 45 minutes at N = 20) was the plan until issue 35: validation levels off within
// 250-850 steps on ER graphs and still creeps up at 1,000 on regular ones (N = 20, Nowak's noise
// 0.05; docs/results.md), and 1,000 steps take under 10 minutes on 2 cores.
var bestTasks = map[envs.Task]taskRecipe{
	// Hidden 64 beat 32 at every N measured (10-25, 3 seeds each; README). No critic penalty:
	// it ties the bilinear critic's G to zero along M - P, the direction of the actor's
	// gradient, and with it validation dipped by up to 0.1 and peaked near 0.988 on weak seeds;
	// without it the curves rise to 0.99+ (docs/recipes.md, "MWM without the critic penalty").
	// The rates halve every 250 steps: at every 500 a seed drifted from 0.994 at step 300 to
	// 0.982 by step 1,000; at 250 its last checkpoint holds 0.994 and the best ones are level.
	// Validation every 50 steps: the penalised runs' peaks lasted 50-100 steps; min keeps a
	// shorter interval the run already has (an --eval-every flag given is set again after the
	// recipe whatever its value).
	envs.TaskMWM: {steps: 1000, model: ModelPairwise, tune: func(c *Config) {
		c.Hidden = 64
		c.CriticPenalty = false
		c.LRDecayEvery = bestShortDecayEvery
		c.EvalEvery = min(c.EvalEvery, bestMWMEvalEvery)
	}},
	// Sort rounds by log M: with SPG+Factored's scores X_ij = F(v_i) . P(j) the Hungarian maximum
	// of X sorts exactly wherever F and P are monotone, while that of M, near uniform at tau
	// 0.05, turned on differences below the critic's error and drifted from 1.0 (docs/results.md,
	// "Rounding by log M"). Epsilon 0.3 keeps the critic seeing actions other than the
	// policy's own; at 0.01 a seed learned the reverse order (docs/recipes.md). The rates halve
	// every 250 steps, as on mwm: at every 500 sort-50 seed 3 was exact from step 500 to 1,250
	// and then fell to Kendall tau 0.84 by step 2,000 and 0.81 by 5,000, the actor following
	// the critic where it overestimated (Q 0.98 at a reward of 0.94); at every 250 the three
	// seeds hold 1.0 (docs/results.md, "Long runs").
	envs.TaskSort: {steps: 1000, model: ModelFactored, tune: func(c *Config) {
		c.LRDecayEvery = bestShortDecayEvery
		c.Buffer, c.Rounding = bestRecentBuffer, RoundingLog
		c.EpsStart, c.EpsEnd = 0.3, 0.3
	}},
	// SPG+Successor: its action, which city follows which, makes the tour's length linear in the
	// action. Each setting here stopped a drift or a plateau measured on 3 seeds: no critic
	// penalty (it held the tour critic's error at 0.15-0.3), the actor's update at the rounded
	// action, rounding by log M (M stays blurred), a slow target critic (with the live one two
	// seeds drifted) and an actor rate that falls with N (1e-4 drifted at N = 50). The runs:
	// docs/recipes.md, items 6 and 7, and docs/results.md, "TSP".
	envs.TaskTSP: {steps: 2000, model: ModelSuccessor, annealEvery: bestAnnealEvery, tune: func(c *Config) {
		c.CriticPenalty = false
		c.LRDecayEvery, c.Buffer = 1000, bestRecentBuffer
		c.EvalEvery = min(c.EvalEvery, bestTSPEvalEvery)
		c.ActorAt, c.Rounding = ActorAtHard, RoundingLog
		c.TargetCritic = bestTargetCritic
		c.ActorLR = bestTSPActorLR(c.N)
		if c.Init != "" && c.N > bestTSPStageAbove {
			// A curriculum stage: a fresh critic warms up before the actor from a smaller N
			// moves, and the actor explores. With epsilon 0.01 the TSP-100 stage's critic
			// priced covers it had never seen and seed 2 got worse; with 0.3 at both stages
			// every seed's single decode fell below farthest insertion (8.278 against 8.366 on
			// the mean; TSP-50 5.908 against 5.946). Its best comes 150-950 actor steps in and
			// validation wanders after, so it is validated every 50 (docs/results.md, "The
			// curriculum with exploration at both stages").
			c.EpsStart, c.EpsEnd, c.EpsDecay = bestTSPStageEpsilon, bestTSPStageEpsilon, 0
			c.CriticWarmup = bestTSPStageWarmup
			c.EvalEvery = min(c.EvalEvery, bestTSPStageEvalEvery)
		}
	}},
	// Validation every 100 steps instead of 500: the ER runs peaked between steps 250 and 850
	// and moved by under 0.005 after (N = 20, docs/results.md), so 500 would keep step 500 or
	// 1,000 whichever held the peak; 1,000 validation instances take about 0.5 s at N = 20.
	// The actor ascends a slow copy of the critic, as on tsp: with the live one two seeds of
	// three on ER graphs at N = 50 fell from their first update (validation 0.908 to 0.69 and
	// 0.920 to 0.79 by step 300, with or without the critic penalty); with the copy all three
	// reached the planted correspondence (0.950, recovery 1.00) by step 100. Without the penalty
	// as on mwm and tsp: with the copy it made no difference there (docs/results.md, issue 35).
	envs.TaskGM: {steps: 1000, model: ModelGM, annealEvery: bestAnnealEvery, tune: func(c *Config) {
		c.EvalEvery = min(c.EvalEvery, bestGMEvalEvery)
		c.CriticPenalty = false
		c.TargetCritic = bestTargetCritic
	}, data: []dataRecipe{bestGMRegular}},
}

// bestGMRegular is best's choice on regular graphs: spg-gm-spectral with the live critic and the
// critic penalty. Closed walks leave the nodes of a regular graph nearly alike, so spg-gm has
// nothing to sharpen (0.411-0.448 of G1's edges kept at N = 50, d = 10, below 2-swap's 0.66);
// spg-gm-spectral's spectral similarity tells them apart (0.883 over 3 seeds; 0.918 and 0.921 on
// single runs since). With the slow critic it fell (seed 1: 0.827 at step 100, 0.397 at 200), the
// copy still the early critic when the consensus steps start to move, so it keeps the live one and
// the penalty it was measured with (docs/results.md, "spg-gm-spectral" and "A slow critic"). At N =
// 20 (d = 4) the untrained spg-gm-spectral already keeps as much as the trained spg-gm (0.860
// against 0.850).
var bestGMRegular = dataRecipe{
	kind: "regular graphs",
	matches: func(n int, spec string) bool {
		p, err := gm.DataParams(n, spec)
		return err == nil && p.Graph == gm.Regular
	},
	model:    ModelGMSpectral,
	settings: "the live critic (target-critic 0), the critic penalty",
	tune: func(c *Config) {
		c.TargetCritic, c.CriticPenalty = 0, true
	},
}

// RecipeChoice says what c's recipe chose by c's data, where it chose by it and c trains the model
// it chose: the kind of data ("regular graphs") and the choice ("spg-gm-spectral, the live critic
// ..."); both "" elsewhere. The start record and the console's header state it, since --data alone
// changed the model.
func RecipeChoice(c Config) (kind, choice string) {
	r := recipeByName(c.Recipe)
	if r == nil {
		return "", ""
	}
	d := r.tasks[c.Task].forData(c)
	if d == nil || d.model != c.Model {
		return "", ""
	}
	return d.kind, d.model + ", " + d.settings
}

// bestAnnealEvery is the best recipe's interval between halvings of the rates past the run
// length it was measured at, on tsp and gm, whose rates halve less often before it (mwm and
// sort halve every 250 steps throughout). On TSP-20, halving every 1,000 steps, seed 1's
// validation rose from its best, 3.9095 at step 1,500, to 3.9234 by step 9,000 of 10,000
// (0.36%), the actor following the critic's errors at ever smaller but unceasing steps;
// halving every 500 from the start held but ended 2,000-step runs 0.3-0.8% longer (3 seeds).
// Halving every 250 past step 2,000 still let seed 2 jump from 3.9422 to 3.9618 by step 3,500;
// every 50 freezes the policy within 250 steps, and the three seeds' last checkpoints at
// 10,000 steps are within 0.12% of their best (docs/results.md, "Long runs").
const bestAnnealEvery = 50

// bestGMEvalEvery is the best recipe's longest validation interval on gm, in steps.
const bestGMEvalEvery = 100

// bestMWMEvalEvery is the best recipe's longest validation interval on mwm, in steps.
const bestMWMEvalEvery = 50

// bestTSPEvalEvery is the best recipe's longest validation interval on tsp, in steps.
const bestTSPEvalEvery = 250

// The best recipe's curriculum stages on tsp: a run with --init above N = bestTSPStageAbove
// warms its fresh critic up for bestTSPStageWarmup steps, explores at bestTSPStageEpsilon and
// validates every bestTSPStageEvalEvery steps (measured at N = 50 and 100, 3 seeds each).
const (
	bestTSPStageAbove     = 20
	bestTSPStageEpsilon   = 0.3
	bestTSPStageWarmup    = 250
	bestTSPStageEvalEvery = 50
)

// bestTargetCritic is the best recipe's Polyak rate of the slow critic the actor ascends on tsp
// and gm.
const bestTargetCritic = 0.01

// bestTSPActorLR is the best recipe's actor rate on tsp at size n: 1e-4 up to n = 20 and
// 3e-5 at n = 50, the two rates measured, and the power law through them, 3e-5 (50/n)^p with
// p = log(10/3)/log(5/2) = 1.31, elsewhere above 20.
func bestTSPActorLR(n int) float64 {
	if n <= 20 {
		return 1e-4
	}
	return 3e-5 * math.Pow(50/float64(n), math.Log(10.0/3)/math.Log(2.5))
}

// bestShortDecayEvery is the best recipe's interval between halvings of the rates on mwm and
// sort, in steps.
const bestShortDecayEvery = 250

// bestRecentBuffer is the best recipe's replay buffer on tsp and sort, in transitions: the last
// 200 steps of batch 128. The tours measured the same with the paper's 10^6 (README); this takes
// 20 MiB at N = 20 where 10^6 takes 789 MiB.
const bestRecentBuffer = 25600

// RecipeNames lists the recipes' names, the default first.
func RecipeNames() []string {
	names := make([]string, len(recipes))
	for i, r := range recipes {
		names[i] = r.name
	}
	return names
}

// recipeByName returns the recipe called name, or nil.
func recipeByName(name string) *recipe {
	for i := range recipes {
		if recipes[i].name == name {
			return &recipes[i]
		}
	}
	return nil
}

// RecipeUsage is the help of a recipe setting (train's --recipe): each recipe's name and what
// it is for.
func RecipeUsage() string {
	var b strings.Builder
	b.WriteString("`NAME` of a set of defaults that explicit flags override:")
	for _, r := range recipes {
		fmt.Fprintf(&b, " %s (%s),", r.name, r.doc)
	}
	return strings.TrimSuffix(b.String(), ",") + "; what each sets: docs/commands.md (train)"
}

// DefaultEpochs is the length of the authors' runs on task (envs.Facts.DefaultEpochs): 20
// epochs for sort, 40 for tsp, 100 for mwm. A run given neither --steps nor --epochs trains
// that long. It is 0 for an unknown task.
func DefaultEpochs(task envs.Task) int {
	if f, err := envs.FactsOf(task); err == nil {
		return f.DefaultEpochs
	}
	return 0
}

// RecipeLength words the run length recipe gives c: "1000 steps" or "20 epochs".
func RecipeLength(recipe string, c Config) string {
	r := recipeByName(recipe)
	if r != nil && r.tasks[c.Task].steps > 0 {
		return fmt.Sprintf("%d steps", r.tasks[c.Task].steps)
	}
	return fmt.Sprintf("%d epochs", RecipeSteps(recipe, c)/c.StepsPerEpoch())
}

// RecipeSteps is the default run length in steps of c under the recipe called name: the
// recipe's own for c's task, or its epochs (the authors' for the task, DefaultEpochs, when it
// has none or name is unknown) of c's training set.
func RecipeSteps(name string, c Config) int {
	r := recipeByName(name)
	if r != nil && r.tasks[c.Task].steps > 0 {
		return r.tasks[c.Task].steps
	}
	epochs := DefaultEpochs(c.Task)
	if r != nil && r.epochs > 0 {
		epochs = r.epochs
	}
	return epochs * c.StepsPerEpoch()
}

// WithRecipe returns c with the recipe called name in place of its own: the recipe's values
// and model over the paper's defaults for c's task and size, keeping the sizes of the run rather
// than of the learner (the seed, the run length, the batch, the datasets and their data spec,
// the replay buffer unless the recipe sets one, the evaluation and log intervals, the evaluation
// interval shortened where the recipe validates more often: best on mwm).
func WithRecipe(c Config, name string) (Config, error) {
	r := recipeByName(name)
	if r == nil {
		return c, fmt.Errorf("recipe %q: must be one of %s", name, strings.Join(RecipeNames(), ", "))
	}
	n := DefaultConfig(c.Task, c.N)
	n.Seed, n.Steps, n.EvalEvery, n.LogEvery = c.Seed, c.Steps, c.EvalEvery, c.LogEvery
	n.Data = c.Data
	n.TrainSize, n.ValSize, n.TestSize, n.Buffer, n.BufferMem = c.TrainSize, c.ValSize, c.TestSize, c.Buffer, c.BufferMem
	r.set(&n)
	n.Batch = c.Batch
	n.Recipe, n.Model = r.name, r.model(n)
	if n.Model == "" {
		n.Model = DefaultModel(c.Task)
	}
	return n, nil
}

// Critic architectures (Config.Critic).
const (
	CriticPaper    = "paper"
	CriticBilinear = "bilinear"
	// CriticExact is no learned critic: Q is the task's reward written as a function of the
	// action (tsp and mwm, SPG models only). A diagnostic upper bound, never a learner.
	CriticExact = "exact"
)

// validCritic reports whether critic names a critic architecture of model for task: a pair
// critic is bilinear by construction; the paper's matching network may take the bilinear one
// on two point sets (mwm); any SPG model may take the exact critic on a task whose reward is
// distances (envs.Facts.DistanceReward: tsp and mwm).
func validCritic(critic string, task envs.Task, model string) bool {
	f, err := envs.FactsOf(task)
	if err != nil {
		return false
	}
	if critic == CriticExact {
		m, err := ModelNamed(model)
		return err == nil && m.Kind == KindSPG && f.DistanceReward
	}
	if m, err := ModelNamed(model); err == nil && m.PairCritic {
		return critic == CriticBilinear
	}
	return critic == "" || critic == CriticPaper || (critic == CriticBilinear && f.PointSets())
}

// criticRule says which critics validCritic accepts for model.
func criticRule(model string) string {
	exact := strings.ReplaceAll(taskList(tasksWhere(func(f *envs.Facts) bool { return f.DistanceReward })), ", ", " and ")
	if m, err := ModelNamed(model); err == nil && m.PairCritic {
		return fmt.Sprintf("must be %s for %s, or %s on %s", CriticBilinear, model, CriticExact, exact)
	}
	return fmt.Sprintf("must be %s, or %s for %s, or %s on %s (SPG models only)", CriticPaper, CriticBilinear,
		taskList(tasksWhere((*envs.Facts).PointSets)), CriticExact, exact)
}

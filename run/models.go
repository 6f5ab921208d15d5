package run

import (
	"fmt"
	"strings"

	"spg-tui/envs"
)

// Model describes a learner a run can train. Its networks are built by the engine (agent
// registers a constructor under the same Name); this side of the contract holds what the
// command line, the console and the experiments need to know without building anything.
type Model struct {
	// Name is how --model and config.json name it: "spg-matching".
	Name string
	// Title is how titles show it: "SPG+Matching".
	Title string
	// Reads reports whether its networks read the task's states (envs.State), and so whether
	// it can learn the task: a task is learnt by every model that reads its states, with no
	// entry naming it.
	Reads func(f *envs.Facts) bool
	// Defaults sets the model's default hyperparameters on the paper's (DefaultConfig); nil
	// keeps the paper's.
	Defaults func(c *Config)
	// Kind is how it learns: an SPG actor-critic, critic-free, or not at all.
	Kind ModelKind
	// PairCritic marks the models whose critic is a pair MLP over the B N^2 pairs of a batch:
	// bilinear by construction (Critic must be CriticBilinear) and sized by its pairs.
	PairCritic bool
	// AnyN marks the models whose networks have no layer sized by N (every parameter is shared
	// across items, or pairs of items): a checkpoint trained at one N solves instances of any.
	AnyN bool
	// Successor marks the models whose action is a successor matrix (tsp: P_ij = 1 when city j
	// follows city i) rather than the tour's places: its rounding, a cycle cover, is patched
	// into one tour before it is executed (envs/tsp.PatchSuccessor).
	Successor bool
	// SampleSpread, when not zero, is the sampled decode's noise measured best for the model in
	// units of its score spread itself, at any N: its relative --gumbel-scale (units of the
	// spread over N^2) is SampleSpread N^2 (agent/eval.DefaultGumbelScaleOf).
	SampleSpread float64
}

// ModelKind is how a model learns, which decides what a run of it has: a replay buffer,
// exploration, a critic and its losses, live parameters (Param.Kinds).
type ModelKind int

// The kinds of models.
const (
	// KindSPG is an SPG actor-critic: replay, exploration, a critic trained on the penalised
	// loss, and an actor ascending the critic through Sinkhorn.
	KindSPG ModelKind = iota
	// KindCriticFree is trained by REINFORCE on its own samples against a moving-average
	// baseline: no replay, no exploration, no critic loss, no Q values; only its actor's
	// learning rate is live.
	KindCriticFree
	// KindUntrained is an SPG actor as initialised from the seed, never updated (the paper's
	// SPG+Random): like KindCriticFree without even a baseline, and nothing is live.
	KindUntrained
)

// HasCritic reports whether models of the kind have a critic (and so a replay buffer,
// exploration and Q values).
func (k ModelKind) HasCritic() bool { return k == KindSPG }

// String names the kind as errors show it: "SPG", "critic-free", "untrained".
func (k ModelKind) String() string {
	return [...]string{"SPG", "critic-free", "untrained"}[k]
}

// Models lists every model. For each task, the first model that supports it is the task's
// default: the paper's SPG architecture.
var Models = []Model{
	{Name: ModelMatching, Title: "SPG+Matching", Reads: pointSets},
	{Name: ModelSequential, Title: "SPG+Sequential", Reads: ordered},
	// The "best" recipe's network: a shared MLP over each (row, column) pair, with a bilinear
	// critic of the same form (agent/nets/pairwise.go).
	{Name: ModelPairwise, Title: "SPG+Pairwise", Reads: either(pointSets, values),
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	// The "best" recipe's network for tsp (it learns sort too): item and place embeddings scored
	// by their dot product, with a pair-MLP critic (agent/nets/factored.go).
	{Name: ModelFactored, Title: "SPG+Factored", Reads: either(values, pointTour),
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	// SPG+Factored with context for tsp: the city embedding is a self-attention encoder over
	// all the cities (agent/nets/attention.go).
	{Name: ModelAttention, Title: "SPG+Attention", Reads: pointTour,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	// SPG+Pairwise for tsp with a successor action: the pair MLP over each ordered pair of cities
	// scores "j follows i", with a bilinear critic that can represent the tour length <P, D>
	// exactly (agent/nets/successor.go).
	{Name: ModelSuccessor, Title: "SPG+Successor", Reads: pointTour,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true, Successor: true},
	// SPG+Successor over features that do not depend on N: each pair's distance in units of the
	// instance's spacing and of both cities' neighbourhoods, and each city's rank among the
	// other's neighbours, so that it transfers to larger tours (linalg/pairs.TourLocal).
	// Its sampled decode's best noise grows as N^2 in relative units (docs/results.md).
	{Name: ModelSuccessorLocal, Title: "SPG+Successor-Local", Reads: pointTour,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true, Successor: true,
		SampleSpread: 0.2},
	// SPG+Successor-Local with one round of messages over its candidate graph: each city's mean
	// pair embedding, out and in, added to its pairs' second layer (agent/nets/pairwise.go).
	{Name: ModelSuccessorGraph, Title: "SPG+Successor-Graph", Reads: pointTour,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true, Successor: true,
		SampleSpread: 0.2},
	// Graph matching's network: a message-passing actor shared by G1 and G2, with a critic of
	// the reward's form over a pair MLP of G1's pairs (agent/nets/graph_matching.go).
	{Name: ModelGM, Title: "SPG+GM", Reads: (*envs.Facts).GraphPairs,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	// SPG+GM with its consensus steps learned on a log scale, so that training can move them
	// (agent/nets/graph_matching.go, gmLogStepScale); its untrained actor is spg-gm's.
	{Name: ModelGMLogStep, Title: "SPG+GM-LogStep", Reads: (*envs.Facts).GraphPairs,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	// SPG+GM-LogStep with Umeyama's spectral similarity added to its scores before the
	// consensus, which breaks the symmetry of regular graphs
	// (agent/nets/graph_matching_spectral.go).
	{Name: ModelGMSpectral, Title: "SPG+GM-Spectral", Reads: (*envs.Facts).GraphPairs,
		Defaults: func(c *Config) { c.Critic = CriticBilinear }, PairCritic: true, AnyN: true},
	{Name: ModelPNAC, Title: "PN-AC", Reads: ordered, Kind: KindCriticFree, Defaults: pnACDefaults},
	{Name: ModelPNACMatching, Title: "PN-AC+Matching", Reads: pointSets, Kind: KindCriticFree, Defaults: belloDefaults},
	{Name: ModelACMatching, Title: "AC+Matching", Reads: pointSets, Kind: KindCriticFree, Defaults: belloDefaults},
	{Name: ModelRandom, Title: "SPG+Random", Reads: either(pointSets, ordered), Kind: KindUntrained,
		Defaults: func(c *Config) { c.Steps = 1 }},
}

// belloDefaults are the training settings of Bello et al. (2016), "Neural combinatorial
// optimization with reinforcement learning" (section 5, "Training details"), which the paper
// kept for its PN-AC baselines: Adam with learning rate 1e-3 decayed by 0.96 every 5,000 steps,
// gradients clipped to L2 norm 1.0, batches of 128, hidden width 128. The moving-average
// baseline's decay (0.8, the authors' code) is agent's.
func belloDefaults(c *Config) {
	c.ActorLR, c.LRDecay, c.LRDecayEvery, c.ClipNorm, c.Batch, c.Hidden = 1e-3, 0.96, 5000, 1, 128, 128
}

// pnACDefaults are Bello et al.'s settings, with the actor's learning rate the paper used on the
// task where it differs (Facts.PNACActorLR: sort's 1e-4).
func pnACDefaults(c *Config) {
	belloDefaults(c)
	if f, err := envs.FactsOf(c.Task); err == nil && f.PNACActorLR > 0 {
		c.ActorLR = f.PNACActorLR
	}
}

// ModelOf resolves c's model to its catalogue entry. A name the catalogue lacks (a config that
// does not validate) resolves to an SPG model titled by its name, so that titles and errors can
// still show it.
func ModelOf(c Config) Model {
	if m, err := ModelNamed(c.Model); err == nil {
		return m
	}
	return Model{Name: c.Model, Title: c.Model}
}

// The models' names, shared by this catalogue and the networks' registries (agent/nets).
const (
	// ModelMatching is the paper's SPG architecture for matching (mwm's default).
	ModelMatching = "spg-matching"
	// ModelSequential is the paper's SPG architecture for sequences (sort's and tsp's default).
	ModelSequential = "spg-sequential"
	// ModelGM is SPG+GM, the "best" recipe's network for graph matching.
	ModelGM = "spg-gm"
	// ModelGMLogStep is SPG+GM with its consensus steps learned on a log scale.
	ModelGMLogStep = "spg-gm-logstep"
	// ModelGMSpectral is SPG+GM-LogStep with the spectral similarity in its scores.
	ModelGMSpectral = "spg-gm-spectral"
	// ModelPNAC is Bello et al.'s pointer network with an actor-critic baseline (sort, tsp).
	ModelPNAC = "pn-ac"
	// ModelPNACMatching is PN-AC over SPG+Matching's dual embedding (mwm).
	ModelPNACMatching = "pn-ac-matching"
	// ModelACMatching is an LSTM over the rows of SPG+Matching's embedding (mwm).
	ModelACMatching = "ac-matching"
	// ModelRandom is the untrained SPG policy of a task's architecture.
	ModelRandom = "spg-random"
)

// ModelPairwise is the permutation-equivariant pairwise network of the "best" recipe.
const ModelPairwise = "spg-pairwise"

// ModelFactored is the "best" recipe's network for tsp (it learns sort too): item-place
// cross-attention.
const ModelFactored = "spg-factored"

// ModelAttention is SPG+Factored with a self-attention encoder over the cities, for tsp.
const ModelAttention = "spg-attention"

// ModelSuccessor is SPG+Pairwise over ordered pairs of cities with a successor action, for tsp.
const ModelSuccessor = "spg-successor"

// ModelSuccessorLocal is SPG+Successor over its cities' neighbourhoods, for tsp at any size.
const ModelSuccessorLocal = "spg-successor-local"

// ModelSuccessorGraph is SPG+Successor-Local with one round of messages over its candidate graph.
const ModelSuccessorGraph = "spg-successor-graph"

// ModelNamed returns the model called name.
func ModelNamed(name string) (Model, error) {
	for _, m := range Models {
		if m.Name == name {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("unknown model %q (want %s)", name, modelNames())
}

// renamedModels maps the names models had before they were named by what they add to the names
// they have now, so that a run's config.json or checkpoint, or a --model, with an old name reads
// as the model it named.
var renamedModels = map[string]string{"spg-gm2": ModelGMLogStep, "spg-gm3": ModelGMSpectral}

// CanonicalModel returns the name the model called name has now: a renamed model's new name, any
// other name as it is.
func CanonicalModel(name string) string {
	if now, ok := renamedModels[name]; ok {
		return now
	}
	return name
}

func modelNames() string {
	names := make([]string, len(Models))
	for i, m := range Models {
		names[i] = m.Name
	}
	return strings.Join(names, ", ")
}

// DefaultModel is the name of the paper's architecture for task, "" for an unknown task.
func DefaultModel(task envs.Task) string {
	for _, m := range Models {
		if m.Supports(task) {
			return m.Name
		}
	}
	return ""
}

// Supports reports whether the model can learn task: a registered task whose states it reads
// (none for a model outside the catalogue, which ModelOf makes of an unknown name).
func (m Model) Supports(task envs.Task) bool {
	f, err := envs.FactsOf(task)
	return err == nil && m.Reads != nil && m.Reads(f)
}

// Tasks lists the registered tasks the model can learn, in the order of envs.Tasks.
func (m Model) Tasks() []envs.Task {
	return tasksWhere(func(f *envs.Facts) bool { return m.Supports(f.Task) })
}

// tasksWhere lists the registered tasks whose facts satisfy is, in the order of envs.Tasks.
func tasksWhere(is func(f *envs.Facts) bool) []envs.Task {
	var out []envs.Task
	for _, t := range envs.Tasks {
		if is(envs.MustFacts(t)) {
			out = append(out, t)
		}
	}
	return out
}

// What the models' networks read (Model.Reads), by the kinds of states of envs.State.
var (
	pointSets = (*envs.Facts).PointSets
	pointTour = (*envs.Facts).PointTour
	values    = (*envs.Facts).Values
	// ordered: the rows are items to put in order, whatever numbers they hold (sort, tsp).
	ordered = func(f *envs.Facts) bool { return !f.State.Pairs }
)

// either reads the states that a or b reads.
func either(a, b func(*envs.Facts) bool) func(*envs.Facts) bool {
	return func(f *envs.Facts) bool { return a(f) || b(f) }
}

// ModelTitle is the title of the model a configuration trains ("SPG+Matching"), its name when
// the model is unknown.
func ModelTitle(c Config) string { return ModelOf(c).Title }

// Title names a run as the paper would: "SPG+Matching · MWM-20".
func Title(c Config) string {
	name := string(c.Task)
	if f, err := envs.FactsOf(c.Task); err == nil {
		name = f.Name
	}
	return fmt.Sprintf("%s · %s-%d", ModelTitle(c), name, c.N)
}

// AnyNModels names the models that run at any N (Model.AnyN), in catalogue order.
func AnyNModels() []string {
	var out []string
	for _, m := range Models {
		if m.AnyN {
			out = append(out, m.Name)
		}
	}
	return out
}

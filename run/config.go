package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"spg-tui/envs"
)

// Config is everything that defines a training run. The defaults are the paper's (Table 3 of its
// appendix) and the reference code's where the paper is silent.
type Config struct {
	Task envs.Task `json:"task"`
	N    int       `json:"n"`
	Seed uint64    `json:"seed"`
	// Data describes the task's data where the task has more than one kind (envs.Facts.NewData:
	// gm's graph family and noise, sort's range); "" is the data that runs written before it
	// existed used. New runs name the task's default spec (envs.DefaultData) where it has one.
	Data string `json:"data,omitempty"`
	// Model names the learner (see Models). Runs written before models were named have none:
	// reading their config.json or checkpoints gives them their task's default, the model they
	// trained.
	Model string `json:"model"`

	// Steps is the run's total number of training steps; a resumed run stops at the same step.
	Steps int `json:"steps"`
	// Batch is the number of fresh instances acted on per step and the minibatch size.
	Batch int `json:"batch"`
	// Buffer is the replay buffer's capacity in transitions; BufferMem caps its memory in bytes.
	Buffer    int   `json:"buffer"`
	BufferMem int64 `json:"buffer_mem"`

	TrainSize int `json:"train_size"`
	ValSize   int `json:"val_size"`
	TestSize  int `json:"test_size"`

	ActorLR      float64 `json:"actor_lr"`
	CriticLR     float64 `json:"critic_lr"`
	LRDecay      float64 `json:"lr_decay"`
	LRDecayEvery int     `json:"lr_decay_every"`
	// LRAnnealFrom, when > 0, is the step after which the rates decay every LRAnnealEvery steps
	// instead of every LRDecayEvery: a recipe's schedule past the length it was measured at.
	LRAnnealFrom  int     `json:"lr_anneal_from,omitempty"`
	LRAnnealEvery int     `json:"lr_anneal_every,omitempty"`
	AdamBeta1     float64 `json:"adam_beta1"`
	AdamBeta2     float64 `json:"adam_beta2"`
	AdamEps       float64 `json:"adam_eps"`
	ClipNorm      float64 `json:"clip_norm"`

	Tau           float64 `json:"tau"`
	SinkhornIters int     `json:"sinkhorn_iters"`
	Hidden        int     `json:"hidden"`

	K        int     `json:"k"`
	EpsStart float64 `json:"eps_start"`
	EpsEnd   float64 `json:"eps_end"`
	// EpsDecay is how much epsilon falls per epoch, spread linearly over the epoch's steps.
	EpsDecay float64 `json:"eps_decay"`
	// EpsAnchor is the step at which epsilon was EpsStart: 0, or the step of a live change.
	EpsAnchor int `json:"eps_anchor,omitempty"`

	CriticPenalty bool `json:"critic_penalty"`
	Exploration   bool `json:"exploration"`

	EvalEvery int `json:"eval_every"`
	LogEvery  int `json:"log_every"`

	// Fidelity to the authors' training; see recipe.go and docs/fidelity.md.
	// Recipe names the set of defaults the run started from (RecipeNames lists them); flags
	// given explicitly override it, and the fields here record what was resolved.
	Recipe string `json:"recipe"`
	// Reward is how an MWM matching is rewarded: "mean" (matched distance / N, the paper's
	// scale) or "sum" (the plain sum, the authors' code). "" reads as "mean" (older runs).
	Reward string `json:"reward"`
	// CriticWarmup is the number of first steps in which only the critic learns (actor LR 0).
	CriticWarmup int `json:"critic_warmup"`
	// CriticUpdates is the number of critic updates per step, each on its own minibatch; the
	// actor updates once, after the last. 0 reads as 1 (older runs).
	CriticUpdates int `json:"critic_updates,omitempty"`
	// TargetCritic is the Polyak rate of a slow copy of the critic that the actor's update
	// ascends in place of the live critic: after every critic update, target = (1 - rate)
	// target + rate critic. 0 (the default) has the actor ascend the live critic.
	TargetCritic float64 `json:"target_critic,omitempty"`
	// ActorAt is where the actor's update evaluates the critic: "" (soft, at the actor's M) or
	// ActorAtHard (at Hungarian(M), the critic's gradient passed straight through the rounding
	// to M). Runs written before it existed have none: they trained soft.
	ActorAt string `json:"actor_at,omitempty"`
	// Init is the run directory whose best actor (and nothing else) this run starts from.
	Init string `json:"init,omitempty"`
	// ImportedFrom names the file whose actor weights an imported run holds (its critic is
	// freshly initialised from Seed); such a run has no training of its own.
	ImportedFrom string `json:"imported_from,omitempty"`
	// Critic is the critic architecture: "paper" (the appendix's) or, for mwm, "bilinear"
	// (bilinear.go). "" reads as "paper" (older runs).
	Critic string `json:"critic"`
	// ValSamples is the number of candidates per instance of the sampled decode that each
	// validation of an SPG model reports beside its single decode (the single decode, then
	// Gumbel-perturbed Sinkhorn samples, the best kept); 0 or 1 reports the single decode only.
	// The single decode alone selects checkpoints, so it never changes training.
	ValSamples int `json:"val_samples,omitempty"`
	// ValN is the size of the validation instances where it is not N (0: N). A model that runs
	// at any N (Model.AnyN) can so be selected by how it solves the size it is meant for: along
	// a TSP run at N = 20 the checkpoint best at 20 is not the one best at 500. The validation
	// set stays ValSize instances; the test set stays at N.
	ValN int `json:"val_n,omitempty"`
	// Rounding is how the policy rounds the actor's M = exp(S^L(X/tau)) to a permutation, in
	// training and at inference: "" by the Hungarian maximum of the sum of M (the paper's), which
	// runs written before the setting existed used; RoundingLog by that of the sum of log M, which
	// is the Hungarian maximum of the scores X at any L and tau (assign.RoundLog).
	Rounding string `json:"rounding,omitempty"`
}

// RoundingLog is Config.Rounding by the Hungarian maximum of log M.
const RoundingLog = "log"

// RoundingM names the paper's rounding, the Hungarian maximum of M, where a flag takes it by
// name (train's and eval's --rounding); Config.Rounding keeps "" for it.
const RoundingM = "m"

// DefaultConfig returns the paper's settings for task at size n, with the task's default model
// and that model's defaults.
func DefaultConfig(task envs.Task, n int) Config {
	c := Config{
		Task: task, N: n, Seed: 1, Model: DefaultModel(task), Data: envs.DefaultData(task),
		Batch: 128, Buffer: 1_000_000, BufferMem: 4 << 30,
		TrainSize: envs.DefaultTrainSize, ValSize: envs.DefaultValSize, TestSize: envs.DefaultTestSize,
		ActorLR: 1e-5, CriticLR: 2e-4, LRDecay: 0.95, LRDecayEvery: 5000,
		AdamBeta1: 0.9, AdamBeta2: 0.999, AdamEps: 1e-8, ClipNorm: 1,
		Tau: 0.05, SinkhornIters: 10, Hidden: 128,
		K: 2, EpsStart: 1, EpsEnd: 0.01, EpsDecay: 0.05,
		CriticPenalty: true, Exploration: true, CriticUpdates: 1,
		EvalEvery: 500, LogEvery: 50,
		Recipe: RecipePaper, Reward: RewardMean, Critic: CriticPaper,
	}
	if m, err := ModelNamed(c.Model); err == nil && m.Defaults != nil {
		m.Defaults(&c)
	}
	return c
}

// UnmarshalJSON decodes a configuration; one written before models were named (config.json or
// a checkpoint of an older run) gets its task's default model, the one that run trained, and one
// naming a renamed model its new name (CanonicalModel); one without a data spec keeps "", the
// data that run trained on, and one without a rounding "", the paper's rounding, whatever c held
// before.
func (c *Config) UnmarshalJSON(data []byte) error {
	type plain Config
	c.Data, c.Rounding = "", ""
	if err := json.Unmarshal(data, (*plain)(c)); err != nil {
		return err
	}
	if c.Model == "" {
		c.Model = DefaultModel(c.Task)
	}
	c.Model = CanonicalModel(c.Model)
	return nil
}

// StepsPerEpoch is one pass over the training set: TrainSize / Batch (3,906 at the defaults).
func (c Config) StepsPerEpoch() int {
	if c.Batch < 1 || c.TrainSize < c.Batch {
		return 1
	}
	return c.TrainSize / c.Batch
}

// Epsilon is the exploration probability before the given step: EpsStart at step EpsAnchor,
// falling by EpsDecay per epoch, linearly over the epoch's steps, never below EpsEnd.
func (c Config) Epsilon(step int) float64 {
	e := c.EpsStart - c.EpsDecay*float64(step-c.EpsAnchor)/float64(c.StepsPerEpoch())
	return math.Max(e, c.EpsEnd)
}

// LRScale is the learning-rate multiplier at the given step: LRDecay every LRDecayEvery steps,
// and past LRAnnealFrom (when set) every LRAnnealEvery steps.
func (c Config) LRScale(step int) float64 {
	if c.LRAnnealFrom <= 0 || step <= c.LRAnnealFrom {
		return math.Pow(c.LRDecay, float64(step/c.LRDecayEvery))
	}
	decays := c.LRAnnealFrom/c.LRDecayEvery + (step-c.LRAnnealFrom)/c.LRAnnealEvery
	return math.Pow(c.LRDecay, float64(decays))
}

// MaxN is the largest size a run trains at: the replay buffer stores a permutation one byte a
// row. A trained model that runs at any N (Model.AnyN) decodes up to its task's instance bound
// (envs.Facts.MaxN; ResolveModel), since decoding keeps no replay buffer.
const MaxN = 255

// Spec is a validated configuration with its task's facts and its model looked up once, where a
// run or a command starts: the code it is handed reads them here instead of looking the names up
// again. Config keeps its string fields, so its JSON (config.json, the records) is Config's.
type Spec struct {
	Config
	// Facts are the facts of Config.Task.
	Facts *envs.Facts `json:"-"`
	// Entry is Config.Model's catalogue entry.
	Entry Model `json:"-"`
}

// Resolve validates c as a run's configuration and looks up its task's facts and its model.
func Resolve(c Config) (Spec, error) {
	resolves.Add(1)
	if err := c.Validate(); err != nil {
		return Spec{}, err
	}
	return resolved(c)
}

// ResolveModel is Resolve for a model's networks alone (a learner built to decode, with no
// replay buffer): n may be anything up to the task's instance bound, not just MaxN.
func ResolveModel(c Config) (Spec, error) {
	resolves.Add(1)
	if err := c.validate(instanceMaxN(c.Task)); err != nil {
		return Spec{}, err
	}
	return resolved(c)
}

// With is s with c's values, c a configuration of s's task and model (a checkpoint's, its live
// changes in it; a policy's at another size): checked as ResolveModel checks one, its facts and
// model s's instead of looked up again.
func (s Spec) With(c Config) (Spec, error) {
	if c.Task != s.Task || c.Model != s.Model {
		return Spec{}, fmt.Errorf("a configuration of %s %s is not one of %s %s", c.Task, c.Model, s.Task, s.Model)
	}
	if err := c.validate(s.Facts.MaxN); err != nil {
		return Spec{}, err
	}
	return Spec{Config: c, Facts: s.Facts, Entry: s.Entry}, nil
}

// resolves counts the calls of Resolve and ResolveModel (Resolves).
var resolves atomic.Int64

// Resolves is how many times this process has called Resolve or ResolveModel: a run start
// resolves its configuration once and passes the Spec down, which tests check by counting.
func Resolves() int64 { return resolves.Load() }

// instanceMaxN is task's instance bound, or MaxN for an unknown task (which validate refuses).
func instanceMaxN(task envs.Task) int {
	if f, err := envs.FactsOf(task); err == nil {
		return f.MaxN
	}
	return MaxN
}

// resolved looks up the facts and the model of a validated c.
func resolved(c Config) (Spec, error) {
	f, err := envs.FactsOf(c.Task)
	if err != nil {
		return Spec{}, err
	}
	m, err := ModelNamed(c.Model)
	if err != nil {
		return Spec{}, err
	}
	return Spec{Config: c, Facts: f, Entry: m}, nil
}

// Validate returns an error naming the first invalid field of a run's configuration.
func (c Config) Validate() error { return c.validate(MaxN) }

// validate is Validate with n bounded by maxN.
func (c Config) validate(maxN int) error {
	if _, err := envs.New(c.Task, max(c.N, 1)); err != nil {
		return fmt.Errorf("task: %v", err)
	}
	if _, err := envs.NewData(c.Task, max(c.N, 1), c.Data); err != nil {
		return err
	}
	m, err := ModelNamed(c.Model)
	if err != nil {
		return fmt.Errorf("model: %v", err)
	}
	if !m.Supports(c.Task) {
		return fmt.Errorf("model %s does not learn %s (it learns %s)", c.Model, c.Task, taskList(m.Tasks()))
	}
	if err := c.checkBounds(); err != nil {
		return err
	}
	checks := []struct {
		bad  bool
		name string
		msg  string
	}{
		{c.N < 2 || c.N > maxN, "n", fmt.Sprintf("%d: must be in [2, %d]", c.N, maxN)},
		{c.Steps < 0, "steps", fmt.Sprintf("%d: must be >= 0", c.Steps)},
		{c.Batch < 1, "batch", fmt.Sprintf("%d: must be >= 1", c.Batch)},
		{c.Buffer < c.Batch, "buffer", fmt.Sprintf("%d: must hold at least one batch (%d)", c.Buffer, c.Batch)},
		{c.BufferMem <= 0, "buffer-mem", fmt.Sprintf("%d: must be > 0", c.BufferMem)},
		{c.TrainSize < c.Batch, "train-size", fmt.Sprintf("%d: must be >= batch (%d)", c.TrainSize, c.Batch)},
		{c.ValSize < 1, "val-size", fmt.Sprintf("%d: must be >= 1", c.ValSize)},
		{c.TestSize < 1, "test-size", fmt.Sprintf("%d: must be >= 1", c.TestSize)},
		{!(c.ActorLR > 0) || math.IsInf(c.ActorLR, 0), "actor-lr", fmt.Sprintf("%g: must be a finite number > 0", c.ActorLR)},
		{!(c.CriticLR > 0) || math.IsInf(c.CriticLR, 0), "critic-lr", fmt.Sprintf("%g: must be a finite number > 0", c.CriticLR)},
		{!(c.LRDecay > 0 && c.LRDecay <= 1), "lr-decay", fmt.Sprintf("%g: must be in (0, 1]", c.LRDecay)},
		{c.LRDecayEvery < 1, "lr-decay-every", fmt.Sprintf("%d: must be >= 1", c.LRDecayEvery)},
		{c.LRAnnealFrom < 0, "lr-anneal-from", fmt.Sprintf("%d: must be >= 0 (0: none)", c.LRAnnealFrom)},
		{c.LRAnnealFrom > 0 && c.LRAnnealEvery < 1, "lr-anneal-every", fmt.Sprintf("%d: must be >= 1 with --lr-anneal-from", c.LRAnnealEvery)},
		{!(c.AdamBeta1 >= 0 && c.AdamBeta1 < 1), "adam-beta1", fmt.Sprintf("%g: must be in [0, 1)", c.AdamBeta1)},
		{!(c.AdamBeta2 >= 0 && c.AdamBeta2 < 1), "adam-beta2", fmt.Sprintf("%g: must be in [0, 1)", c.AdamBeta2)},
		{!(c.AdamEps > 0), "adam-eps", fmt.Sprintf("%g: must be > 0", c.AdamEps)},
		{!(c.ClipNorm > 0) || math.IsInf(c.ClipNorm, 0), "clip-norm", fmt.Sprintf("%g: must be a finite number > 0", c.ClipNorm)},
		{c.SinkhornIters < 1, "sinkhorn-iters", fmt.Sprintf("%d: must be >= 1", c.SinkhornIters)},
		{c.Hidden < 1, "hidden", fmt.Sprintf("%d: must be >= 1", c.Hidden)},
		{c.K < 2 || c.K > c.N, "k", fmt.Sprintf("%d: must be in [2, n]", c.K)},
		{!inUnit(c.EpsStart), "eps-start", fmt.Sprintf("%g: must be in [0, 1]", c.EpsStart)},
		{!inUnit(c.EpsEnd), "eps-end", fmt.Sprintf("%g: must be in [0, 1]", c.EpsEnd)},
		{!inUnit(c.EpsDecay), "eps-decay", fmt.Sprintf("%g: must be in [0, 1]", c.EpsDecay)},
		{c.EpsAnchor < 0, "eps-anchor", fmt.Sprintf("%d: must be >= 0", c.EpsAnchor)},
		{c.EvalEvery < 1, "eval-every", fmt.Sprintf("%d: must be >= 1", c.EvalEvery)},
		{c.LogEvery < 1, "log-every", fmt.Sprintf("%d: must be >= 1", c.LogEvery)},
		{c.Reward != "" && c.Reward != RewardMean && c.Reward != RewardSum, "reward", fmt.Sprintf("%q: must be %s or %s", c.Reward, RewardMean, RewardSum)},
		{!validCritic(c.Critic, c.Task, c.Model), "critic", criticRule(c.Model)},
		{c.CriticWarmup < 0, "critic-warmup", fmt.Sprintf("%d: must be >= 0", c.CriticWarmup)},
		{c.CriticUpdates < 0 || c.CriticUpdates > MaxCriticUpdates, "critic-updates", fmt.Sprintf("%d: must be in [1, %d]", c.CriticUpdates, MaxCriticUpdates)},
		{c.ValSamples < 0 || c.ValSamples > MaxSamples, "val-samples", fmt.Sprintf("%d: must be in [0, %d] (0 and 1: the single decode only)", c.ValSamples, MaxSamples)},
		{!(c.TargetCritic >= 0 && c.TargetCritic <= 1), "target-critic", fmt.Sprintf("%g: must be in [0, 1]", c.TargetCritic)},
		{c.ActorAt != "" && c.ActorAt != ActorAtSoft && c.ActorAt != ActorAtHard, "actor-at", fmt.Sprintf("%q: must be %s or %s", c.ActorAt, ActorAtSoft, ActorAtHard)},
		{c.Rounding != "" && c.Rounding != RoundingLog, "rounding", fmt.Sprintf("%q: must be empty (Hungarian on M) or %s (on log M)", c.Rounding, RoundingLog)},
		{c.Recipe != "" && recipeByName(c.Recipe) == nil, "recipe", fmt.Sprintf("%q: must be one of %s", c.Recipe, strings.Join(RecipeNames(), ", "))},
	}
	for _, ch := range checks {
		if ch.bad {
			return fmt.Errorf("%s %s", ch.name, ch.msg)
		}
	}
	if c.Reward == RewardSum && !envs.MustFacts(c.Task).SumReward {
		sums := tasksWhere(func(f *envs.Facts) bool { return f.SumReward })
		return fmt.Errorf("reward %s: only %s has a plain-sum reward", c.Reward, taskList(sums))
	}
	if c.ValN != 0 {
		if bound := instanceMaxN(c.Task); c.ValN < 2 || c.ValN > bound {
			return fmt.Errorf("val-n %d: must be in [2, %d] (0: n)", c.ValN, bound)
		}
		if c.ValN != c.N && !m.AnyN {
			return fmt.Errorf("val-n %d: %s has layers sized by n, so it validates at n = %d only (models that run at any n: %s)",
				c.ValN, m.Title, c.N, strings.Join(AnyNModels(), ", "))
		}
	}
	if c.ValSamples > 1 && m.Kind != KindSPG {
		return fmt.Errorf("val-samples %d: %s has no Sinkhorn layer to sample from (only SPG models do)", c.ValSamples, m.Title)
	}
	if err := actorAtRefused(m, c.ActorAt); err != nil {
		return err
	}
	if err := RoundingRefused(m, c.Rounding); err != nil {
		return err
	}
	if c.EpsEnd > c.EpsStart {
		return errors.New("eps-end must not exceed eps-start")
	}
	return nil
}

func taskList(tasks []envs.Task) string {
	s := make([]string, len(tasks))
	for i, t := range tasks {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func inUnit(x float64) bool { return x >= 0 && x <= 1 }

// The values of Config.ActorAt ("" reads as ActorAtSoft).
const (
	ActorAtSoft = "soft"
	ActorAtHard = "hard"
)

// ValidationN is the size of the validation instances: ValN, or N where it is 0.
func (c *Config) ValidationN() int {
	if c.ValN > 0 {
		return c.ValN
	}
	return c.N
}

// ValDecodes is the number of candidates per instance of the validations' sampled decode
// (ValSamples, 1 when unset): 1 is the single decode only.
func (c *Config) ValDecodes() int { return max(c.ValSamples, 1) }

// MaxCriticUpdates bounds Config.CriticUpdates.
const MaxCriticUpdates = 64

// CriticUpdatesPerStep is the number of critic updates per step (CriticUpdates, 1 when unset).
func (c *Config) CriticUpdatesPerStep() int { return max(c.CriticUpdates, 1) }

// actorAtRefused says why model m cannot take its actor's update at actorAt, or nil: the
// update at the rounded action ascends a critic, which only SPG models have.
func actorAtRefused(m Model, actorAt string) error {
	if actorAt == ActorAtHard && m.Kind != KindSPG {
		return fmt.Errorf("actor-at %s: %s has no critic to ascend (only SPG models do)", actorAt, m.Title)
	}
	return nil
}

// RoundingRefused says why model m cannot round by rounding (a run's or eval's), or nil: log M
// needs a Sinkhorn layer, which the critic-free models lack.
func RoundingRefused(m Model, rounding string) error {
	if rounding == RoundingLog && m.Kind == KindCriticFree {
		return fmt.Errorf("rounding %s: %s has no Sinkhorn layer to round (only SPG models do)", rounding, m.Title)
	}
	return nil
}

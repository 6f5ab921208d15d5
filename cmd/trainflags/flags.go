package trainflags

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"spg-tui/envs"
	"spg-tui/run"
)

// RegisterFlags registers every training flag on fs, writing into cfg (its values are the
// defaults shown), and returns the function to call after fs.Parse: it applies --epochs and the
// --no-* switches and validates the result, naming the first bad field.
func RegisterFlags(fs *flag.FlagSet, cfg *run.Config) (finish func() error) {
	fs.Var((*taskFlag)(&cfg.Task), "task", "`TASK`: "+envs.TaskList())
	fs.IntVar(&cfg.N, "n", cfg.N, fmt.Sprintf("problem size, 2 to %d", run.MaxN))
	fs.StringVar(&cfg.Data, "data", cfg.Data, "`SPEC` of the task's data: "+envs.DataUsage())
	model := fs.String("model", "", "`MODEL` to train, one of docs/commands.md's Models (an unknown one is refused with their names)")
	fs.IntVar(&cfg.Steps, "steps", cfg.Steps, fmt.Sprintf("the run's total training steps, 0 to %d", run.MaxSteps))
	epochs := fs.Float64("epochs", 0, fmt.Sprintf("the run's total in epochs (passes over the training set), instead of --steps (at most %d steps in all)", run.MaxSteps))
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the data, the networks, exploration and sampling")
	fs.Float64Var(&cfg.Tau, "tau", cfg.Tau, fmt.Sprintf("Sinkhorn temperature, %g to %g", run.MinTau, run.MaxTau))
	fs.IntVar(&cfg.SinkhornIters, "sinkhorn-iters", cfg.SinkhornIters, fmt.Sprintf("Sinkhorn iterations L, 1 to %d", run.MaxSinkhornIters))
	fs.IntVar(&cfg.Hidden, "hidden", cfg.Hidden, fmt.Sprintf("hidden width of the networks, 1 to %d", run.MaxHidden))
	fs.Float64Var(&cfg.EpsStart, "eps-start", cfg.EpsStart, "initial exploration probability epsilon")
	fs.Float64Var(&cfg.EpsEnd, "eps-end", cfg.EpsEnd, "floor of epsilon")
	fs.Float64Var(&cfg.EpsDecay, "eps-decay", cfg.EpsDecay, "fall of epsilon per epoch, spread linearly over its steps")
	fs.IntVar(&cfg.K, "k", cfg.K, "rows exchanged by an exploration move, 2 to n")
	fs.Float64Var(&cfg.ActorLR, "actor-lr", cfg.ActorLR, "actor learning rate")
	fs.Float64Var(&cfg.CriticLR, "critic-lr", cfg.CriticLR, "critic learning rate")
	fs.Float64Var(&cfg.LRDecay, "lr-decay", cfg.LRDecay, "learning-rate multiplier every --lr-decay-every steps")
	fs.IntVar(&cfg.LRDecayEvery, "lr-decay-every", cfg.LRDecayEvery, "steps between learning-rate decays")
	fs.IntVar(&cfg.LRAnnealFrom, "lr-anneal-from", cfg.LRAnnealFrom, "step after which the rates decay every --lr-anneal-every steps instead (0: never)")
	fs.IntVar(&cfg.LRAnnealEvery, "lr-anneal-every", cfg.LRAnnealEvery, "steps between learning-rate decays after --lr-anneal-from, which it needs (refused without it)")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, fmt.Sprintf("instances acted on per step, and the minibatch size, 1 to %d", run.MaxBatch))
	fs.IntVar(&cfg.Buffer, "buffer", cfg.Buffer, fmt.Sprintf("replay buffer capacity in transitions, a batch to %d (and within --buffer-mem)", run.MaxBuffer))
	fs.Var((*byteSize)(&cfg.BufferMem), "buffer-mem", "memory cap of the replay buffer in `BYTES`; a K, M or G suffix multiplies by 2^10, 2^20, 2^30; with the run's other memory, at most the machine's (or cgroup's) memory")
	fs.IntVar(&cfg.TrainSize, "train-size", cfg.TrainSize, fmt.Sprintf("training instances (one epoch is a pass over them), a batch to %d", run.MaxTrainSize))
	fs.IntVar(&cfg.ValSize, "val-size", cfg.ValSize, fmt.Sprintf("validation instances (model selection), 1 to %d", run.MaxEvalSize))
	fs.IntVar(&cfg.ValN, "val-n", cfg.ValN, "size of the validation instances, which choose the best checkpoint (0: --n); another size only for models that run at any n, to select by the size they will solve")
	fs.IntVar(&cfg.TestSize, "test-size", cfg.TestSize, fmt.Sprintf("test instances (scored once, at the end), 1 to %d", run.MaxEvalSize))
	fs.IntVar(&cfg.EvalEvery, "eval-every", cfg.EvalEvery, "steps between validations")
	fs.IntVar(&cfg.LogEvery, "log-every", cfg.LogEvery, "steps between training summaries")
	noPenalty := fs.Bool("no-critic-penalty", !cfg.CriticPenalty, "train the critic without the penalty MSE(Q(s,P), Q(s,M))")
	noExplore := fs.Bool("no-exploration", !cfg.Exploration, "no k-exchange exploration")
	recipeName := fs.String("recipe", cfg.Recipe, run.RecipeUsage())
	fs.StringVar(&cfg.Reward, "reward", cfg.Reward, "MWM reward: mean (matched distance / N) or sum (the plain sum)")
	fs.StringVar(&cfg.Critic, "critic", cfg.Critic, "critic architecture: paper, bilinear (Q = <A, G(s)>, G a pair MLP; over the tour's edges on tsp) or exact (a DIAGNOSTIC on tsp and mwm: the reward as Q, nothing learned; docs/commands.md)")
	fs.IntVar(&cfg.CriticWarmup, "critic-warmup", cfg.CriticWarmup, "first steps in which only the critic learns (actor frozen)")
	fs.IntVar(&cfg.CriticUpdates, "critic-updates", cfg.CriticUpdates, fmt.Sprintf("critic updates per step, each on its own minibatch (the actor updates once, after the last), 1 to %d", run.MaxCriticUpdates))
	fs.IntVar(&cfg.ValSamples, "val-samples", cfg.ValSamples, "candidates per instance of a sampled decode each validation of an SPG model reports beside the single decode (the single decode, then Gumbel-perturbed Sinkhorn samples; 0 to "+strconv.Itoa(run.MaxSamples)+", 0 or 1: the single decode only); it never changes training")
	fs.Float64Var(&cfg.TargetCritic, "target-critic", cfg.TargetCritic, "Polyak `RATE` of a slow target critic for the actor's update (target = (1-RATE) target + RATE critic after each critic update); 0: the live critic")
	fs.Var((*actorAtFlag)(&cfg.ActorAt), "actor-at", "where the actor's update evaluates the critic: soft (at the actor's M) or hard (at Hungarian(M), the gradient passed straight through the rounding to M)")
	fs.Var((*roundingFlag)(&cfg.Rounding), "rounding", "how the policy rounds its M to a permutation: m (the Hungarian maximum of the sum of M, the paper's) or log (of the sum of log M: the order of the actor's scores whatever tau)")
	fs.StringVar(&cfg.Init, "init", cfg.Init, "start the actor from the best checkpoint of the run in `DIR` (critic fresh; it may be of another n where the model runs at any n)")
	return func() error {
		ch := run.Choices{Given: map[string]bool{}, Recipe: *recipeName, Model: *model, Epochs: *epochs,
			NoCriticPenalty: *noPenalty, NoExploration: *noExplore}
		fs.Visit(func(f *flag.Flag) { ch.Given[f.Name] = true })
		c, err := run.Choose(*cfg, ch)
		*cfg = c
		return err
	}
}

// taskFlag is a flag.Value for envs.Task that refuses an unknown task as it is parsed, before
// the checks of the other flags (train --task tsp20 said --n is required).
type taskFlag envs.Task

func (t *taskFlag) String() string { return string(*t) }

func (t *taskFlag) Set(s string) error {
	task, err := envs.ParseTask(s)
	if err != nil {
		return err
	}
	*t = taskFlag(task)
	return nil
}

// roundingFlag is a flag.Value for run.Config.Rounding that names the paper's rounding run.RoundingM, as
// eval's --rounding does, while the configuration keeps "" for it so that earlier runs'
// config.json files read unchanged. An empty value is taken as m.
type roundingFlag string

func (r *roundingFlag) String() string {
	if *r == "" {
		return run.RoundingM
	}
	return string(*r)
}

func (r *roundingFlag) Set(s string) error {
	switch s {
	case run.RoundingM, "":
		*r = ""
	case run.RoundingLog:
		*r = run.RoundingLog
	default:
		return fmt.Errorf("%q: must be %s (the Hungarian maximum of M) or %s (of log M)", s, run.RoundingM, run.RoundingLog)
	}
	return nil
}

// actorAtFlag is a flag.Value for run.Config.ActorAt that names the default, "" in a configuration
// (finish writes soft so), as soft.
type actorAtFlag string

func (a *actorAtFlag) String() string {
	if *a == "" {
		return run.ActorAtSoft
	}
	return string(*a)
}

func (a *actorAtFlag) Set(s string) error {
	*a = actorAtFlag(s)
	return nil
}

// byteSize is a flag.Value for a size in bytes: a whole number with an optional K, M or G
// (binary) suffix, optionally followed by B or iB.
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(s), "B"), "I")
	shift := 0
	if len(t) > 0 {
		if i := strings.IndexByte("KMG", t[len(t)-1]); i >= 0 {
			shift = 10 * (i + 1)
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil || v < 0 || v > math.MaxInt64>>shift {
		return fmt.Errorf("%q is not a size in bytes (e.g. 4G, 512M, 1000000)", s)
	}
	*b = byteSize(v << shift)
	return nil
}

// ResumeFlags checks the training flags set on fs (registered by RegisterFlags) for a resume of
// the run in dir, which started with cfg: a run keeps its configuration, so only a new total
// (--steps or --epochs, in the run's epochs) may be given, and --task, --n, --seed and --model
// only if they match the run. It returns the total to pass to ResumeRun, 0 to keep the run's.
// Flags that RegisterFlags does not define are left to the caller.
func ResumeFlags(fs *flag.FlagSet, cfg run.Config, dir string) (steps int, err error) {
	var scratch run.Config
	train := flag.NewFlagSet("", flag.ContinueOnError)
	RegisterFlags(train, &scratch)
	var first error
	fs.Visit(func(f *flag.Flag) {
		if train.Lookup(f.Name) == nil || first != nil {
			return
		}
		v := f.Value.String()
		switch f.Name {
		case "steps":
			if steps, _ = strconv.Atoi(v); steps < 1 {
				first = fmt.Errorf("steps %s: must be >= 1", v)
			}
		case "epochs":
			e, _ := strconv.ParseFloat(v, 64)
			steps, first = run.EpochsToSteps(e, cfg.StepsPerEpoch())
		case "task", "n", "seed", "model":
			want := map[string]string{"task": string(cfg.Task), "n": strconv.Itoa(cfg.N),
				"seed": strconv.FormatUint(cfg.Seed, 10), "model": cfg.Model}[f.Name]
			if v != want {
				first = fmt.Errorf("--%s %s: the run in %s is %s n = %d, seed %d, model %s", f.Name, v, dir, cfg.Task, cfg.N, cfg.Seed, cfg.Model)
			}
		default:
			first = fmt.Errorf("--%s cannot change on --resume: the run keeps its configuration (the console changes it live)", f.Name)
		}
	})
	return steps, first
}

package experimentcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"spg-tui/agent/device"
	"spg-tui/agent/eval"
	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/trainflags"
	"spg-tui/experiments"
	"spg-tui/run"
)

// maxJobs bounds experiment --jobs: each job is a whole training run with its own goroutines
// and memory, far more than any machine trains at once to good effect.
const maxJobs = 256

// Options are an experiment preset's flags.
type Options struct {
	Preset string
	Seeds  int
	Scale  float64
	Jobs   int
	Out    string
	// Models, RunsDir and Shard are --model, --runs and --shard as given.
	Models, RunsDir, Shard string
	// Decoding is the test sets' sampled decode (the single decode alone at --samples 1).
	Decoding run.Decoding
	// train holds the training flags' values, the ones given set on every run.
	train       run.Config
	trainFlags  *flag.FlagSet
	applyCache  func() error
	applyDevice func() (*device.Device, error)
	flags       *flag.FlagSet
}

// NewFlags registers the flags of preset name into o.
func NewFlags(name string, o *Options, stderr io.Writer) *flag.FlagSet {
	o.Preset = name
	fs := cmdutil.NewFlags("experiment "+name, "--out DIR [--seeds N] [--scale F] [--jobs J] [--runs DIR] [--shard i/n] [--model M,...] [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [training flags]")
	fs.IntVar(&o.Seeds, "seeds", 10, fmt.Sprintf("runs per arm, seeds 1..N, N from 1 to %d (the paper's 10)", run.MaxSeeds))
	fs.Float64Var(&o.Scale, "scale", 1, "fraction of the paper's budget, in (0, 1]: shrinks the training set, so an epoch and every epoch schedule shrink with it; refused below the least at which each run keeps one batch an epoch and one step a decay interval (0.000256 for the presets' 500,000 instances in batches of 128)")
	fs.IntVar(&o.Jobs, "jobs", runtime.NumCPU(), fmt.Sprintf("runs trained at once, 1 to %d, their memory together within the machine's", maxJobs))
	fs.StringVar(&o.Out, "out", "", "the experiment directory: experiment.json, runs/, report.md, results.csv, figures (required)")
	fs.StringVar(&o.Models, "model", "", "run only these of the preset's models (comma-separated)")
	fs.StringVar(&o.RunsDir, "runs", "", "keep the runs in `DIR` (default: the experiment directory's runs/); experiments given the same DIR share the runs they have in common")
	fs.StringVar(&o.Shard, "shard", "", "run only the i-th of n disjoint slices of the runs (`i/n`, 0 <= i < n); merge the shards with experiment merge")
	// The training flags, routed to every run, but those the experiment sets (task, size, seed,
	// budget); the preset refuses its own variable. They write into o.train, registered on a
	// set of their own that is never parsed: fs parses them.
	// Its switches start on, as every preset's runs have them unless an arm says otherwise, so
	// that --help does not show --no-critic-penalty and --no-exploration as "(default true)".
	o.train = run.Config{CriticPenalty: true, Exploration: true}
	o.trainFlags = flag.NewFlagSet("", flag.ContinueOnError)
	trainflags.RegisterFlags(o.trainFlags, &o.train)
	o.trainFlags.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil && !slices.Contains([]string{"task", "n", "seed", "steps", "epochs"}, f.Name) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	o.Decoding = eval.SingleDecode
	dec := &o.Decoding
	dec.Seed = 1 // eval's default noise seed
	fs.IntVar(&dec.Samples, "samples", dec.Samples, "also score every SPG run's test set with the best of K candidates per view (the single decode, then K-1 Gumbel-perturbed Sinkhorn samples, each rounded by the Hungarian algorithm), beside the single decode; K from 1 to "+fmt.Sprint(run.MaxSamples))
	cmdutil.NoiseFlags(fs, dec)
	fs.BoolVar(&dec.Augment, "augment", false, "the sampled decode also decodes the instance's images under the 8 symmetries of the unit square (mwm, tsp), keeping the best")
	o.applyCache = cmdutil.CacheFlag(fs)
	o.applyDevice = cmdutil.DeviceFlag(fs, "where the runs train", stderr)
	o.flags = fs
	return fs
}

// presetMain is experiment PRESET on the command line args.
func presetMain(name string, args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(name, &o, s.Err), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// overrides are the training flags given, typed as parsed: their values in o.train.
func (o *Options) overrides() experiments.Overrides {
	ov := experiments.Overrides{Values: o.train, Choices: run.Choices{Given: map[string]bool{}}, Text: map[string]string{}}
	o.flags.Visit(func(f *flag.Flag) {
		if o.trainFlags.Lookup(f.Name) == nil || f.Name == "model" {
			return
		}
		ov.Choices.Given[f.Name], ov.Text[f.Name] = true, f.Value.String()
		// The choices that are no field of o.train: the flag package's own values, typed.
		switch f.Name {
		case "recipe":
			ov.Choices.Recipe = f.Value.(flag.Getter).Get().(string)
		case "no-critic-penalty":
			ov.Choices.NoCriticPenalty = f.Value.(flag.Getter).Get().(bool)
		case "no-exploration":
			ov.Choices.NoExploration = f.Value.(flag.Getter).Get().(bool)
		}
	})
	return ov
}

// options are the experiments package's options for o, checked.
func (o *Options) options() (experiments.Options, error) {
	eo := experiments.Options{Preset: o.Preset, Seeds: o.Seeds, Scale: o.Scale, RunsDir: o.RunsDir, Overrides: o.overrides()}
	if o.Models != "" {
		eo.Models = strings.Split(o.Models, ",")
	}
	if o.Shard != "" {
		sh, err := experiments.ParseShard(o.Shard)
		if err != nil {
			return eo, err
		}
		eo.Shard = sh
	}
	if o.Jobs < 1 || o.Jobs > maxJobs {
		return eo, fmt.Errorf("--jobs %d: must be in [1, %d]", o.Jobs, maxJobs)
	}
	if err := checkDecoding(o.Preset, o.Decoding); err != nil {
		return eo, err
	}
	if err := cmdutil.CheckNoiseFlags(o.flags, o.Decoding); err != nil {
		return eo, err
	}
	if !o.Decoding.Single() {
		s := o.Decoding
		eo.Sampling = &s
	}
	return eo, nil
}

// Run trains and scores the preset's runs o asks for and writes the report.
func Run(o *Options, s cmdutil.Streams) int {
	name, stderr := o.Preset, s.Err
	cmd := "experiment " + name
	if err := o.applyCache(); err != nil {
		return cmdutil.Fail(stderr, cmd, err)
	}
	dev, err := o.applyDevice()
	if err != nil {
		return cmdutil.Fail(stderr, cmd, err)
	}
	eo, err := o.options()
	if err != nil {
		return cmdutil.Fail(stderr, cmd, err)
	}
	pr, err := experiments.Prepare(eo, o.Out)
	if err != nil {
		return cmdutil.Fail(stderr, cmd, err)
	}
	if err := checkExperimentRuns(pr.Mine, o.Jobs); err != nil {
		return cmdutil.Fail(stderr, cmd, err)
	}
	steps := 0
	for _, r := range pr.Mine {
		steps += r.Config.Steps
	}
	part := ""
	if eo.Shard.N > 1 {
		part = fmt.Sprintf(" (shard %s: %d of the plan's %d runs)", eo.Shard, len(pr.Mine), len(pr.All))
	}
	fmt.Fprintf(stderr, "experiment %s: %d runs%s, %s steps, %d at a time, into %s\n", name, len(pr.Mine), part, fmtThousands(steps), o.Jobs, o.Out)
	stop, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	var stopping atomic.Bool
	defer cmdutil.StopOnSignals(cmd, "checkpointing every live run", stderr, &stopping, func() { close(stop) }, done)()
	mc := experiments.Machine{Start: cmdutil.StartOn(dev), Score: eval.ScoreBest(dev), Sample: eval.SampleBest(dev), Jobs: o.Jobs,
		Progress: stderr, Every: 30 * time.Second, Stop: stop}
	err = pr.Run(mc)
	if errors.Is(err, experiments.ErrStopped) {
		fmt.Fprintf(stderr, "experiment %s: %v; the same command continues them\n", name, err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "spg-tui %s: %v\n", cmd, err)
		return cmdutil.ExitFailed
	}
	if eo.Shard.N > 1 {
		fmt.Fprintf(stderr, "experiment %s: shard %s done; build the report with: spg-tui experiment merge --out DIR SHARD_DIR...\n", name, eo.Shard)
	} else {
		fmt.Fprintf(stderr, "experiment %s: report in %s/%s\n", name, o.Out, experiments.ReportFile)
	}
	return 0
}

// checkDecoding refuses, in one line, a decode that some task of the preset cannot use, or
// whose settings are out of range even where --samples 1 leaves them unused.
func checkDecoding(preset string, dec run.Decoding) error {
	p, err := experiments.PresetNamed(preset)
	if err != nil {
		return err
	}
	for _, a := range p.Arms {
		if err := dec.Validate(a.Task); err != nil {
			return fmt.Errorf("preset %s: %v", preset, err)
		}
	}
	return nil
}

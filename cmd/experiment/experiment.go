package main

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

	"spg-tui/agent"
	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/run"
)

func init() {
	commands = append(commands, command{"experiment", "reproduce the paper's tables and figures across seeds (list, a preset, merge)", runExperiment})
}

// runExperiment dispatches `experiment list`, `experiment merge` and `experiment PRESET`.
func runExperiment(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return fail(stderr, "experiment", fmt.Errorf("want list, merge or a preset (%s)", strings.Join(experiments.PresetNames(), ", ")))
	}
	if args[0] == "-h" || args[0] == "--help" {
		experimentUsage(stdout)
		return 0
	}
	switch args[0] {
	case "list":
		return experimentList(args[1:], stdout, stderr)
	case "merge":
		return experimentMerge(args[1:], stdout, stderr)
	}
	return experimentPreset(args[0], args[1:], stdout, stderr)
}

func experimentUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: spg-tui experiment list")
	fmt.Fprintln(w, "       spg-tui experiment PRESET --out DIR [--seeds 10] [--scale 1] [--jobs J] [--runs DIR] [--shard i/n] [--model M,...] [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [training flags]")
	fmt.Fprintln(w, "       spg-tui experiment merge --out DIR [--partial] SHARD_DIR...")
	fmt.Fprintf(w, "Presets: %s\n", strings.Join(experiments.PresetNames(), ", "))
}

func experimentList(args []string, stdout, stderr io.Writer) int {
	if status, ok := parseFlags(newFlags("experiment list", "(the presets, what each reproduces and its cost)"), args, stdout, stderr); !ok {
		return status
	}
	for _, p := range experiments.Presets() {
		fmt.Fprintf(stdout, "%-12s %s\n", p.Name, p.Reproduces)
		fmt.Fprintf(stdout, "%-12s models %s; %d arms x 10 seeds, %s training steps at scale 1 (batch 128)\n",
			"", strings.Join(p.Models(), ", "), len(p.Arms), fmtThousands(p.CostSteps(10)))
	}
	return 0
}

func fmtThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func experimentMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("experiment merge", "--out DIR [--partial] SHARD_DIR...")
	out := fs.String("out", "", "the merged experiment directory: new, empty, or an earlier merge of the same plan, which is replaced (required)")
	partial := fs.Bool("partial", false, "merge shards that lack some of the plan's runs; the report says it is partial")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return fail(stderr, "experiment merge", err)
	}
	m, err := experiments.Merge(*out, fs.Args(), *partial)
	if err != nil {
		fail(stderr, "experiment merge", err)
		return runErrorStatus(err)
	}
	part := ""
	if m.Runs < m.Total {
		part = " (partial)"
	}
	fmt.Fprintf(stderr, "experiment merge: %d of the plan's %d runs%s into %s (%s)\n", m.Runs, m.Total, part, *out, experiments.ReportFile)
	return 0
}

// maxJobs bounds experiment --jobs: each job is a whole training run with its own goroutines
// and memory, far more than any machine trains at once to good effect.
const maxJobs = 256

func experimentPreset(name string, args []string, stdout, stderr io.Writer) int {
	cmd := "experiment " + name
	fs := newFlags(cmd, "--out DIR [--seeds N] [--scale F] [--jobs J] [--runs DIR] [--shard i/n] [--model M,...] [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [training flags]")
	seeds := fs.Int("seeds", 10, fmt.Sprintf("runs per arm, seeds 1..N, N from 1 to %d (the paper's 10)", run.MaxSeeds))
	scale := fs.Float64("scale", 1, "fraction of the paper's budget, in (0, 1]: shrinks the training set, so an epoch and every epoch schedule shrink with it; refused below the least at which each run keeps one batch an epoch and one step a decay interval (0.000256 for the presets' 500,000 instances in batches of 128)")
	jobs := fs.Int("jobs", runtime.NumCPU(), fmt.Sprintf("runs trained at once, 1 to %d, their memory together within the machine's", maxJobs))
	out := fs.String("out", "", "the experiment directory: experiment.json, runs/, report.md, results.csv, figures (required)")
	models := fs.String("model", "", "run only these of the preset's models (comma-separated)")
	runsDir := fs.String("runs", "", "keep the runs in `DIR` (default: the experiment directory's runs/); experiments given the same DIR share the runs they have in common")
	shard := fs.String("shard", "", "run only the i-th of n disjoint slices of the runs (`i/n`, 0 <= i < n); merge the shards with experiment merge")
	// The training flags, routed to every run, but those the experiment sets (task, size, seed,
	// budget); the preset refuses its own variable.
	// Its switches start on, as every preset's runs have them unless an arm says otherwise, so
	// that --help does not show --no-critic-penalty and --no-exploration as "(default true)".
	scratch := run.Config{CriticPenalty: true, Exploration: true}
	train := flag.NewFlagSet("", flag.ContinueOnError)
	run.RegisterFlags(train, &scratch)
	train.VisitAll(func(f *flag.Flag) {
		if fs.Lookup(f.Name) == nil && !slices.Contains([]string{"task", "n", "seed", "steps", "epochs"}, f.Name) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	dec := eval.SingleDecode
	dec.Seed = 1 // eval's default noise seed
	fs.IntVar(&dec.Samples, "samples", dec.Samples, "also score every SPG run's test set with the best of K candidates per view (the single decode, then K-1 Gumbel-perturbed Sinkhorn samples, each rounded by the Hungarian algorithm), beside the single decode; K from 1 to "+fmt.Sprint(run.MaxSamples))
	noiseFlags(fs, &dec)
	fs.BoolVar(&dec.Augment, "augment", false, "the sampled decode also decodes the instance's images under the 8 symmetries of the unit square (mwm, tsp), keeping the best")
	applyCache := cacheFlag(fs)
	applyDevice := deviceFlag(fs, "where the runs train", stderr)
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := applyCache(); err != nil {
		return fail(stderr, cmd, err)
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, cmd, err)
	}
	o := experiments.Options{Preset: name, Seeds: *seeds, Scale: *scale, RunsDir: *runsDir, Flags: map[string]string{}}
	fs.Visit(func(f *flag.Flag) {
		if train.Lookup(f.Name) != nil && f.Name != "model" {
			o.Flags[f.Name] = f.Value.String()
		}
	})
	if *models != "" {
		o.Models = strings.Split(*models, ",")
	}
	if *shard != "" {
		sh, err := experiments.ParseShard(*shard)
		if err != nil {
			return fail(stderr, cmd, err)
		}
		o.Shard = sh
	}
	if *jobs < 1 || *jobs > maxJobs {
		return fail(stderr, cmd, fmt.Errorf("--jobs %d: must be in [1, %d]", *jobs, maxJobs))
	}
	if err := checkDecoding(name, dec); err != nil {
		return fail(stderr, cmd, err)
	}
	if err := checkNoiseFlags(fs, dec); err != nil {
		return fail(stderr, cmd, err)
	}
	if !dec.Single() {
		s := dec
		o.Sampling = &s
	}
	pr, err := experiments.Prepare(o, *out)
	if err != nil {
		return fail(stderr, cmd, err)
	}
	if err := checkExperimentRuns(pr.Mine, *jobs); err != nil {
		return fail(stderr, cmd, err)
	}
	steps := 0
	for _, r := range pr.Mine {
		steps += r.Config.Steps
	}
	part := ""
	if o.Shard.N > 1 {
		part = fmt.Sprintf(" (shard %s: %d of the plan's %d runs)", o.Shard, len(pr.Mine), len(pr.All))
	}
	fmt.Fprintf(stderr, "experiment %s: %d runs%s, %s steps, %d at a time, into %s\n", name, len(pr.Mine), part, fmtThousands(steps), *jobs, *out)
	stop, done := make(chan struct{}), make(chan struct{})
	defer close(done)
	var stopping atomic.Bool
	defer stopOnSignals(cmd, "checkpointing every live run", stderr, &stopping, func() { close(stop) }, done)()
	mc := experiments.Machine{Start: agent.StartRun, Score: scorePolicy, Sample: samplePolicy, Jobs: *jobs,
		Progress: stderr, Every: 30 * time.Second, Stop: stop}
	err = pr.Run(mc)
	if errors.Is(err, experiments.ErrStopped) {
		fmt.Fprintf(stderr, "experiment %s: %v; the same command continues them\n", name, err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "spg-tui %s: %v\n", cmd, err)
		return exitFailed
	}
	if o.Shard.N > 1 {
		fmt.Fprintf(stderr, "experiment %s: shard %s done; build the report with: spg-tui experiment merge --out DIR SHARD_DIR...\n", name, o.Shard)
	} else {
		fmt.Fprintf(stderr, "experiment %s: report in %s/%s\n", name, *out, experiments.ReportFile)
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

// samplePolicy solves a test set with the sampled decode s of the best checkpoint of the run in
// dir.
func samplePolicy(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error) {
	pol, err := eval.LoadPolicy(dir)
	if err != nil {
		return nil, err
	}
	return pol.SolveWith(env, insts, s)
}

// scorePolicy solves a test set with the best checkpoint of the run in dir.
func scorePolicy(dir string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
	pol, err := eval.LoadPolicy(dir)
	if err != nil {
		return nil, 0, err
	}
	sols, err := pol.Solve(env, insts)
	return sols, pol.Step(), err
}

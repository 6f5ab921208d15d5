// Command spg-tui is an experiment console for Sinkhorn Policy Gradient: it generates and solves
// permutation problems (sorting, maximum weight matching, Euclidean TSP), trains SPG policies on
// them and evaluates and benchmarks the result from the command line.
// This file only wires flags to the packages that do the work.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"spg-tui/agent"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/linalg/backend"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// exitUsage is the exit status for bad flags and bad input files.
const exitUsage = 2

// command is one subcommand of spg-tui.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = []command{
	{"gen", "write a seeded instance file to stdout", runGen},
	{"solve", "solve every instance of a file with an exact or classical solver (JSON Lines)", runSolve},
	{"train", "train an SPG policy headless into a run directory (resumable)", runTrain},
	{"eval", "solve every instance of a file with a trained policy (JSON Lines, like solve)", runEval},
	{"bench", "time full training steps and print one JSON line", runBench},
	{"import", "write a run directory holding the authors' published SPG+Matching actor (.npz)", runImport},
	{"tui", "the live console (the default): train and watch, --resume a run, or --view runs read-only (several: compare them)", runTUI},
}

// exitFailed is the exit status of a training run that failed after it started.
const exitFailed = 1

func main() {
	backend.EnsureCoreType()
	if err := backend.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "spg-tui:", err)
		os.Exit(exitUsage)
	}
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// dispatch runs the command named by args[0]; no command opens the console.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runTUI(nil, stdin, stdout, stderr)
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "spg-tui: unknown command %q (run spg-tui --help)\n", args[0])
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "spg-tui: Sinkhorn Policy Gradient experiment console")
	fmt.Fprintln(w, "\nUsage: spg-tui [<command> [flags]]   (spg-tui <command> --help for its flags)")
	// The model is the recipe's, as the console resolves it when it starts.
	c := consoleConfig()
	cfg, err := run.WithRecipe(c, c.Recipe)
	if err != nil {
		panic(err) // consoleConfig names a built-in recipe
	}
	fmt.Fprintf(w, "With no command, spg-tui opens the console training %s (recipe %s).\n", run.Title(cfg), cfg.Recipe)
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}

// newFlags returns a flag set that reports errors as one line (via parseFlags) instead of
// printing the whole usage.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: spg-tui %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; it returns ok=false with the exit status when the command should stop
// (help was asked for, or a flag was bad).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (status int, ok bool) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0, false
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "spg-tui %s: %v (see spg-tui %s --help)\n", fs.Name(), err, fs.Name())
		return exitUsage, false
	}
	return 0, true
}

func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "spg-tui %s: %v\n", cmd, err)
	return exitUsage
}

// failOutput reports an error met while writing the output: an I/O error (standard output
// that cannot be written) exits 1, a value refused on its way out (a non-finite objective) 2.
func failOutput(stderr io.Writer, cmd string, err error) int {
	fail(stderr, cmd, err)
	return runErrorStatus(err)
}

// maxGenCount bounds gen --count: a file of that many instances is already far beyond any
// use (training sets are drawn, not read), and the count stays an instance index.
const maxGenCount = 1_000_000_000

func runGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("gen", "--task "+envs.TaskUsage()+" --n N [--count K] [--seed S] [--data SPEC]")
	task := fs.String("task", "", "task: "+envs.TaskList()+" (required)")
	n := fs.Int("n", 0, "size of every instance, 1 to the task's largest ("+envs.MaxNUsage()+") (required)")
	data := fs.String("data", "", "`SPEC` of the task's data where it has several kinds: "+envs.DataUsage())
	count := fs.Int("count", 1, fmt.Sprintf("number of instances, 1 to %d (written one by one, in constant memory)", maxGenCount))
	seed := fs.Uint64("seed", 1, "dataset seed: instance i is the same for the same (task, n, seed, i)")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *task == "" {
		return fail(stderr, "gen", errors.New("--task is required ("+envs.TaskList()+")"))
	}
	if *count < 1 || *count > maxGenCount {
		return fail(stderr, "gen", fmt.Errorf("--count %d: must be in [1, %d]", *count, maxGenCount))
	}
	if *data == "" {
		*data = envs.DefaultData(envs.Task(*task))
	}
	env, err := envs.NewData(envs.Task(*task), *n, *data)
	if err != nil {
		return fail(stderr, "gen", fmt.Errorf("--task/--n/--data: %v", err))
	}
	// Instance by instance: a file of any --count is written in constant memory.
	w := bufio.NewWriter(stdout)
	fw, err := envs.NewFileWriter(w, env.Task(), env.N())
	if err != nil {
		return failOutput(stderr, "gen", err)
	}
	for i := range *count {
		if err := fw.Write(env.Generate(*seed, i)); err != nil {
			return failOutput(stderr, "gen", err)
		}
	}
	if err := fw.Close(); err != nil {
		return failOutput(stderr, "gen", err)
	}
	if err := w.Flush(); err != nil {
		return failOutput(stderr, "gen", err)
	}
	return 0
}

func runSolve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("solve", "--solver NAME --in FILE|- [--seed S] [--restarts K]")
	solver := fs.String("solver", "", "solver name (mwm: hungarian, greedy, random; tsp: exact, nn, farthest, 2opt, 2opt-oropt, christofides, ap-patch, random; sort: exact, random; gm: exact, spectral, 2swap, faq, planted, random)")
	in := fs.String("in", "", "instance file, or - for standard input (required)")
	seed := fs.Uint64("seed", 1, "seed of the randomised solvers")
	restarts := fs.Int("restarts", 0, "random doubly stochastic starts of gm's faq beside its barycentre start, the best kept (0: the barycentre alone, deterministic)")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *solver == "" {
		return fail(stderr, "solve", errors.New("--solver is required"))
	}
	if *in == "" {
		return fail(stderr, "solve", errors.New("--in is required (a file, or - for standard input)"))
	}
	f, env, err := readInstances(*in, stdin)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	start := time.Now()
	sols, err := envs.SolveAllRestarts(env, *solver, f.Instances, *seed, *restarts)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	elapsed := time.Since(start)
	mean, err := writeSolutions(stdout, sols)
	if err != nil {
		return failOutput(stderr, "solve", err)
	}
	name := *solver
	if *restarts > 0 {
		name = fmt.Sprintf("%s with %d random restarts", name, *restarts)
	}
	fmt.Fprintf(stderr, "solve: %d %s-%d instances, solver %s, mean objective %.6g, %s\n",
		len(sols), env.Task(), env.N(), name, mean, elapsed.Round(time.Microsecond))
	return 0
}

// readInstances reads and validates the instance file at path, or standard input for "-".
func readInstances(path string, stdin io.Reader) (*envs.File, envs.Env, error) {
	r := stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		r = file
	}
	return envs.ReadFile(r)
}

// writeSolutions writes one JSON line per solution and returns their mean objective.
func writeSolutions(stdout io.Writer, sols []envs.Solution) (float64, error) {
	if err := envs.CheckObjectives(sols); err != nil {
		return 0, err
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		if err := enc.Encode(s); err != nil {
			return 0, err
		}
		objectives[i] = s.Objective
	}
	return stats.Mean(objectives), w.Flush()
}

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("train", "--task "+envs.TaskUsage()+" --n N [--steps S | --epochs E] [--seed S] --out DIR [flags]\n"+
		"       spg-tui train --resume DIR [--steps S | --epochs E] [--json]")
	cfg := run.DefaultConfig("", 0)
	finish := run.RegisterFlags(fs, &cfg)
	out := fs.String("out", "", "run directory: config.json, metrics.jsonl, train.log, checkpoints/ (required unless --resume)")
	resume := fs.String("resume", "", "continue the run in `DIR` exactly where its last checkpoint left it")
	jsonOut := fs.Bool("json", false, "print every metrics record to stdout, as the JSON lines of metrics.jsonl")
	applyCache := cacheFlag(fs)
	applyDevice := deviceFlag(fs)
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := applyCache(); err != nil {
		return fail(stderr, "train", err)
	}
	if err := emptyPath(fs, "resume", "out"); err != nil {
		return fail(stderr, "train", err)
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, "train", err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var (
		eng run.Engine
		err error
	)
	switch {
	case *resume != "" && *out != "":
		return fail(stderr, "train", errors.New("--out and --resume are exclusive (a resumed run stays in its directory)"))
	case *resume != "":
		steps, err := resumeSteps(fs, *resume)
		if err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
		noteCheckpointLoad(stderr, "train", *resume)
		if eng, err = agent.ResumeRun(*resume, steps); err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
	case !set["task"]:
		return fail(stderr, "train", errors.New("--task is required ("+envs.TaskList()+")"))
	case !set["n"]:
		return fail(stderr, "train", errors.New("--n is required"))
	case *out == "":
		return fail(stderr, "train", errors.New("--out is required (the run directory)"))
	default:
		if err = finish(); err != nil {
			return fail(stderr, "train", err)
		}
		if eng, err = agent.StartRun(cfg, *out); err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
	}
	return follow(eng, stdout, stderr, *jsonOut)
}

// follow prints a training run's records until it ends; SIGINT, SIGTERM or SIGHUP stops it
// (with a checkpoint). It returns the exit status.
func follow(eng run.Engine, stdout, stderr io.Writer, jsonOut bool) int {
	info, cfg := eng.Info(), eng.Config()
	fmt.Fprintf(stderr, "train: %s, seed %d, %d steps (%d per epoch), backend %s, run directory %s\n",
		info.Title, info.Seed, cfg.Steps, cfg.StepsPerEpoch(), info.Backend, info.Dir)
	if run.ModelOf(cfg).Kind.HasCritic() {
		fmt.Fprintf(stderr, "train: replay buffer capacity %d transitions (%d MiB)\n",
			info.BufferCapacity, int64(info.BufferCapacity)*replay.TransitionBytes(cfg.N)>>20)
	}
	var stopping atomic.Bool
	defer stopOnSignals("train", "writing the checkpoint", stderr, &stopping, eng.Stop, eng.Done())()
	defer reportWaits(eng, stderr, "train", waitReportEvery)()
	enc := json.NewEncoder(stdout)
	var stdoutErr error
	// The history a resumed run sends first was printed by the sessions that made it.
	skip := info.History
	run.Follow(eng.Records(), func(rec run.Record) {
		if skip > 0 {
			skip--
			return
		}
		if jsonOut && stdoutErr == nil {
			// A closed stdout stops the run as a signal would: a checkpoint, then exit.
			if stdoutErr = enc.Encode(rec); stdoutErr != nil && !stopping.Swap(true) {
				fmt.Fprintf(stderr, "train: stopping: standard output failed (%v): writing the checkpoint\n", stdoutErr)
				eng.Stop()
			}
		}
		if line := run.ProgressLine(rec, cfg); line != "" {
			fmt.Fprintln(stderr, "train:", line)
		}
	})
	<-eng.Done()
	st := eng.Status()
	if st.Dropped > 0 {
		fmt.Fprintf(stderr, "train: %d records were printed late or not at all; %s has them all\n", st.Dropped, run.MetricsFile)
	}
	if err := eng.Err(); err != nil {
		fmt.Fprintf(stderr, "spg-tui train: %v\n", err)
		return exitFailed
	}
	if st.State == run.StateStopped {
		fmt.Fprintf(stderr, "train: stopped at step %d of %d; continue with: spg-tui train --resume %s\n", st.Step, st.TotalSteps, info.Dir)
	}
	if stdoutErr != nil {
		if errors.Is(stdoutErr, syscall.EPIPE) {
			return exitStdoutClosed
		}
		return exitFailed
	}
	return 0
}

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("eval", "--checkpoint PATH --in FILE|- [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [--rounding m|log] [--seed S] [--critic-max] [--polish 2swap]")
	ckpt := fs.String("checkpoint", "", "checkpoint file, or a run directory for its best checkpoint (required)")
	in := fs.String("in", "", "instance file, or - for standard input (required)")
	dec := agent.SingleDecode
	fs.IntVar(&dec.Samples, "samples", dec.Samples, "candidates per view: the single decode, then K-1 Gumbel-perturbed Sinkhorn samples, each rounded by the Hungarian algorithm; the best is kept; K from 1 to "+strconv.Itoa(agent.MaxSamples))
	noiseFlags(fs, &dec)
	fs.BoolVar(&dec.Augment, "augment", false, "also decode the instance's images under the 8 symmetries of the unit square (mwm, tsp), keeping the best")
	fs.StringVar(&dec.Rounding, "rounding", "", "round every candidate by the Hungarian maximum of M (m) or of log M (log: of the actor's scores X, the layer's tau -> 0 limit) instead of as the run does")
	fs.Uint64Var(&dec.Seed, "seed", 1, "seed of the sampling noise")
	applyDevice := deviceFlag(fs)
	polish := fs.String("polish", "", polishUsage)
	criticMax := fs.Bool("critic-max", false, "decode by the critic instead of the actor: the permutation it rates highest, the Hungarian maximum of G(s) where Q(s, A) = <A, G(s)> (the bilinear critics on mwm and sort; a diagnostic of what the critic has learned)")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *ckpt == "" {
		return fail(stderr, "eval", errors.New("--checkpoint is required"))
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, "eval", err)
	}
	if *in == "" {
		return fail(stderr, "eval", errors.New("--in is required (a file, or - for standard input)"))
	}
	f, env, err := readInstances(*in, stdin)
	if err != nil {
		return fail(stderr, "eval", err)
	}
	if err := dec.Validate(env.Task()); err != nil {
		return fail(stderr, "eval", err)
	}
	if err := checkNoiseFlags(fs, dec); err != nil {
		return fail(stderr, "eval", err)
	}
	if err := checkPolish(*polish, env.Task()); err != nil {
		return fail(stderr, "eval", err)
	}
	pol, err := agent.LoadPolicy(*ckpt)
	if err != nil {
		return fail(stderr, "eval", err)
	}
	if err := pol.Accepts(env.Task(), env.N()); err != nil {
		return fail(stderr, "eval", err)
	}
	if *criticMax {
		if *polish != "" {
			return fail(stderr, "eval", errors.New("--critic-max decodes by the critic alone: it takes no --polish"))
		}
		return evalCriticMax(pol, *ckpt, env, f.Instances, dec, stdout, stderr)
	}
	if !flagGiven(fs, "gumbel-scale") && dec.Noise == run.NoiseRelative {
		dec.GumbelScale = agent.DefaultGumbelScaleOf(run.ModelOf(pol.Config()))
	}
	decode := func(d agent.Decoding) func([]envs.Instance) ([]envs.Solution, error) {
		return func(insts []envs.Instance) ([]envs.Solution, error) { return pol.SolveWith(env, insts, d) }
	}
	one := agent.SingleDecode
	one.Rounding = dec.Rounding
	single, singleTime, err := timedDecode(decode(one), f.Instances)
	if err != nil {
		return fail(stderr, "eval", err)
	}
	sols := single
	var sampledTime time.Duration
	if !dec.Single() {
		if sols, sampledTime, err = timedDecode(decode(dec), f.Instances); err != nil {
			return fail(stderr, "eval", err)
		}
	}
	mean := meanObjective(sols)
	written := sols
	var polishTime time.Duration
	if *polish != "" {
		if written, polishTime, err = polishSolutions(env, f.Instances, sols, *polish); err != nil {
			return fail(stderr, "eval", err)
		}
	}
	polishedMean, err := writeSolutions(stdout, written)
	if err != nil {
		return failOutput(stderr, "eval", err)
	}
	count := len(sols)
	perInstance := func(d time.Duration) time.Duration { return (d / time.Duration(count)).Round(time.Microsecond) }
	policyNote := trainedAt(pol, env)
	if dec.Rounding != "" {
		policyNote += ", rounding " + dec.Rounding
	}
	fmt.Fprintf(stderr, "eval: %d %s-%d instances, policy %s (step %d%s): single decode mean objective %.6g (%s per instance)",
		count, env.Task(), env.N(), *ckpt, pol.Step(), policyNote, meanObjective(single), perInstance(singleTime))
	if !dec.Single() {
		fmt.Fprintf(stderr, "; sampled (K = %d, gumbel-scale %g %s, augment %s, seed %d) mean objective %.6g (%s per instance)",
			dec.Samples, dec.GumbelScale, dec.Noise, augmentWord(dec.Augment), dec.Seed, mean, perInstance(sampledTime))
	}
	if *polish != "" {
		// Apart from the policy's own numbers: the search, not the policy, adds this.
		fmt.Fprintf(stderr, "; policy + %s polish mean objective %.6g (%s per instance more)", *polish, polishedMean, perInstance(polishTime))
	}
	fmt.Fprintln(stderr)
	return 0
}

// evalCriticMax is eval --critic-max: the critic's own maximum of every instance, written as the
// actor's decodes are.
func evalCriticMax(pol *agent.Policy, ckpt string, env envs.Env, insts []envs.Instance, dec agent.Decoding, stdout, stderr io.Writer) int {
	if !dec.Single() || dec.Rounding != "" {
		return fail(stderr, "eval", errors.New("--critic-max decodes by the critic alone: it takes no --samples, --augment or --rounding"))
	}
	start := time.Now()
	sols, err := pol.SolveCriticMax(env, insts)
	if err != nil {
		return fail(stderr, "eval", err)
	}
	elapsed := time.Since(start)
	mean, err := writeSolutions(stdout, sols)
	if err != nil {
		return failOutput(stderr, "eval", err)
	}
	fmt.Fprintf(stderr, "eval: %d %s-%d instances, policy %s (step %d%s): the critic's maximum, mean objective %.6g (%s per instance)\n",
		len(sols), env.Task(), env.N(), ckpt, pol.Step(), trainedAt(pol, env), mean, (elapsed / time.Duration(len(sols))).Round(time.Microsecond))
	return 0
}

// trainedAt is ", trained at n = N" when the policy was trained at another size than env's, else "".
func trainedAt(pol *agent.Policy, env envs.Env) string {
	if n := pol.Config().N; n != env.N() {
		return fmt.Sprintf(", trained at n = %d", n)
	}
	return ""
}

// augmentWord says whether the 8 symmetries were decoded.
func augmentWord(on bool) string {
	if on {
		return "x8"
	}
	return "off"
}

// meanObjective is the mean objective of sols.
func meanObjective(sols []envs.Solution) float64 {
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		objectives[i] = s.Objective
	}
	return stats.Mean(objectives)
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("bench", "--task "+envs.TaskUsage()+" --n N [--recipe R] [--model M] [--batch B] [--steps K]")
	task := fs.String("task", "", "task: "+envs.TaskList()+" (required)")
	n := fs.Int("n", 0, fmt.Sprintf("problem size, 2 to %d (required)", run.MaxN))
	recipe := fs.String("recipe", run.RecipePaper, "recipe whose model and settings are timed: "+strings.Join(run.RecipeNames(), ", "))
	model := fs.String("model", "", "model to time (default: the recipe's for the task)")
	batch := fs.Int("batch", 128, fmt.Sprintf("batch size, 1 to %d", run.MaxBatch))
	steps := fs.Int("steps", 20, fmt.Sprintf("timed steps, at most %d (after 3 untimed warm-up steps)", agent.MaxBenchSteps))
	applyDevice := deviceFlag(fs)
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, "bench", err)
	}
	if *task == "" {
		return fail(stderr, "bench", errors.New("--task is required ("+envs.TaskList()+")"))
	}
	cfg, err := benchConfig(*task, *n, *recipe, *model, *batch)
	if err != nil {
		return fail(stderr, "bench", err)
	}
	res, err := agent.Bench(cfg, *steps)
	if err != nil {
		return fail(stderr, "bench", err)
	}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		return failOutput(stderr, "bench", err)
	}
	return 0
}

// benchConfig is the configuration train would run for these flags, through the same flag
// rules (the recipe, then the model's defaults, then validation).
func benchConfig(task string, n int, recipe, model string, batch int) (run.Config, error) {
	cfg := run.DefaultConfig(envs.TaskMWM, 10)
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	finish := run.RegisterFlags(fs, &cfg)
	args := []string{"--task", task, "--n", strconv.Itoa(n), "--recipe", recipe, "--batch", strconv.Itoa(batch)}
	if model != "" {
		args = append(args, "--model", model)
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	return cfg, finish()
}

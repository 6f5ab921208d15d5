// Package benchcmd is spg-tui bench: full training steps timed, the result on one JSON line.
package benchcmd

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"spg-tui/agent"
	"spg-tui/agent/device"
	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
	"spg-tui/run"
)

// Options are bench's flags.
type Options struct {
	Task          *envs.Task
	N             int
	Recipe, Model string
	Batch, Steps  int
	VersusCores   int
	CPUProfile    string
	applyDevice   func() (*device.Device, error)
	flags         *flag.FlagSet
}

// NewFlags registers bench's flags into o.
func NewFlags(o *Options, stderr io.Writer) *flag.FlagSet {
	fs := cmdutil.NewFlags("bench", "--task "+envs.TaskUsage()+" --n N [--recipe R] [--model M] [--batch B] [--steps K] [--versus-cores C] [--cpuprofile FILE]")
	o.Task = cmdutil.TaskFlag(fs)
	fs.IntVar(&o.N, "n", 0, fmt.Sprintf("problem size, 2 to %d (required)", run.MaxN))
	fs.StringVar(&o.Recipe, "recipe", run.RecipePaper, "recipe whose model and settings are timed: "+strings.Join(run.RecipeNames(), ", "))
	fs.StringVar(&o.Model, "model", "", "model to time (default: the recipe's for the task)")
	fs.IntVar(&o.Batch, "batch", 128, fmt.Sprintf("batch size, 1 to %d", run.MaxBatch))
	fs.IntVar(&o.Steps, "steps", 20, fmt.Sprintf("timed steps, at most %d (after 3 untimed warm-up steps)", agent.MaxBenchSteps))
	fs.IntVar(&o.VersusCores, "versus-cores", 0, fmt.Sprintf("also time as many steps at this many cores (GOMAXPROCS), 1 to %d, alternating with the others step by step, and report their median and the ratio of the two (0: none)", runtime.NumCPU()))
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the bench (warm-up steps included) to this file, for go tool pprof")
	o.applyDevice = cmdutil.DeviceFlag(fs, "where the timed steps run", stderr)
	o.flags = fs
	return fs
}

// Main is bench on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o, s.Err), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run times the steps o asks for and prints the result as one JSON line.
func Run(o *Options, s cmdutil.Streams) int {
	stderr := s.Err
	dev, err := o.applyDevice()
	if err != nil {
		return cmdutil.Fail(stderr, "bench", err)
	}
	if err := cmdutil.RequireTaskN(o.flags); err != nil {
		return cmdutil.Fail(stderr, "bench", err)
	}
	cfg, err := o.config()
	if err != nil {
		return cmdutil.Fail(stderr, "bench", err)
	}
	stop, err := startCPUProfile(o.CPUProfile)
	if err != nil {
		return cmdutil.Fail(stderr, "bench", err)
	}
	res, err := agent.Bench(cfg, agent.BenchOptions{Steps: o.Steps, VersusCores: o.VersusCores}, dev)
	if perr := stop(); err == nil && perr != nil {
		return cmdutil.FailOutput(stderr, "bench", perr)
	}
	if err != nil {
		return cmdutil.Fail(stderr, "bench", err)
	}
	if err := json.NewEncoder(s.Out).Encode(res); err != nil {
		return cmdutil.FailOutput(stderr, "bench", err)
	}
	return 0
}

// config is the configuration train runs for the task, size, recipe, model and batch o names,
// by the same rules (run.Choose: the recipe, then the model's defaults, then validation).
func (o *Options) config() (run.Config, error) {
	cfg := run.DefaultConfig(envs.TaskMWM, 10)
	cfg.Task, cfg.N, cfg.Batch = *o.Task, o.N, o.Batch
	ch := run.Choices{Given: map[string]bool{"task": true, "n": true, "recipe": true, "batch": true}, Recipe: o.Recipe, Model: o.Model}
	ch.Given["model"] = o.Model != ""
	return run.Choose(cfg, ch)
}

// startCPUProfile starts a CPU profile into the file at path, none where path is empty; stop
// ends it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}

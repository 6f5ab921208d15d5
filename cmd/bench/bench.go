package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"spg-tui/agent"
	"spg-tui/envs"
	"spg-tui/run"
)

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("bench", "--task "+envs.TaskUsage()+" --n N [--recipe R] [--model M] [--batch B] [--steps K] [--cpuprofile FILE]")
	task := taskFlag(fs)
	n := fs.Int("n", 0, fmt.Sprintf("problem size, 2 to %d (required)", run.MaxN))
	recipe := fs.String("recipe", run.RecipePaper, "recipe whose model and settings are timed: "+strings.Join(run.RecipeNames(), ", "))
	model := fs.String("model", "", "model to time (default: the recipe's for the task)")
	batch := fs.Int("batch", 128, fmt.Sprintf("batch size, 1 to %d", run.MaxBatch))
	steps := fs.Int("steps", 20, fmt.Sprintf("timed steps, at most %d (after 3 untimed warm-up steps)", agent.MaxBenchSteps))
	profile := fs.String("cpuprofile", "", "write a CPU profile of the bench (warm-up steps included) to this file, for go tool pprof")
	applyDevice := deviceFlag(fs, "where the timed steps run", stderr)
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, "bench", err)
	}
	if err := requireTaskN(fs); err != nil {
		return fail(stderr, "bench", err)
	}
	cfg, err := benchConfig(*task, *n, *recipe, *model, *batch)
	if err != nil {
		return fail(stderr, "bench", err)
	}
	stop, err := startCPUProfile(*profile)
	if err != nil {
		return fail(stderr, "bench", err)
	}
	res, err := agent.Bench(cfg, *steps)
	if perr := stop(); err == nil && perr != nil {
		return failOutput(stderr, "bench", perr)
	}
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
func benchConfig(task envs.Task, n int, recipe, model string, batch int) (run.Config, error) {
	cfg := run.DefaultConfig(envs.TaskMWM, 10)
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	finish := run.RegisterFlags(fs, &cfg)
	args := []string{"--task", string(task), "--n", strconv.Itoa(n), "--recipe", recipe, "--batch", strconv.Itoa(batch)}
	if model != "" {
		args = append(args, "--model", model)
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	return cfg, finish()
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

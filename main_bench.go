package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"spg-tui/agent"
	"spg-tui/envs"
	"spg-tui/run"
)

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("bench", "--task "+envs.TaskUsage()+" --n N [--recipe R] [--model M] [--batch B] [--steps K]")
	task := taskFlag(fs)
	n := fs.Int("n", 0, fmt.Sprintf("problem size, 2 to %d (required)", run.MaxN))
	recipe := fs.String("recipe", run.RecipePaper, "recipe whose model and settings are timed: "+strings.Join(run.RecipeNames(), ", "))
	model := fs.String("model", "", "model to time (default: the recipe's for the task)")
	batch := fs.Int("batch", 128, fmt.Sprintf("batch size, 1 to %d", run.MaxBatch))
	steps := fs.Int("steps", 20, fmt.Sprintf("timed steps, at most %d (after 3 untimed warm-up steps)", agent.MaxBenchSteps))
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

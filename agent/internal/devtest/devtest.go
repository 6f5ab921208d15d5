// Package devtest holds what agent's tests share across packages: for the GPU learners, the
// devices they run on (the emulator, a real GPU) and the models and configurations they check,
// for agent/learn's comparisons with the CPU learner and agent's runs that train on a device;
// for the learner tests of agent/learn and agent/eval, the toy configurations and states.
package devtest

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu"
	"spg-tui/run"
)

// The devices are opened once per test binary; testDevsWhy says why one is missing.
var (
	testDevicesOnce sync.Once
	testDevs        []cuda.Device
	testDevsWhy     []string
)

// Devices are the devices the GPU learners are checked on: the emulator wherever a C++
// compiler is found, and a real GPU wherever one opens (tools/gpu-check.sh). Without either
// the test is skipped; a GPU that a machine requires (cuda.RequireGPUEnv) and that fails to
// open fails it.
func Devices(t testing.TB) []cuda.Device {
	t.Helper()
	testDevicesOnce.Do(func() {
		// On a GPU machine (tools/gpu-check.sh) the GPU alone is checked: the emulator ran here.
		dir, err := os.MkdirTemp("", "spg-agent-emu-")
		if os.Getenv(cuda.RequireGPUEnv) != "" {
			err = errors.New("not run where a GPU is required")
		}
		if err == nil {
			var d *emu.Device
			if d, err = emu.OpenIn(dir); err == nil {
				testDevs = append(testDevs, d)
			}
		}
		if err != nil {
			testDevsWhy = append(testDevsWhy, "emulator: "+err.Error())
		}
		opts, err := device.Options("")
		if err != nil {
			panic(err)
		}
		g, err := cuda.Open(opts)
		switch {
		case err == nil:
			testDevs = append(testDevs, g)
		case cuda.Absent(err) && os.Getenv(cuda.RequireGPUEnv) == "":
			testDevsWhy = append(testDevsWhy, "gpu: "+err.Error())
		default:
			testDevsWhy = append(testDevsWhy, "GPU FAILED: "+err.Error())
		}
	})
	for _, w := range testDevsWhy {
		if strings.HasPrefix(w, "GPU FAILED") {
			t.Fatal(w)
		}
	}
	if len(testDevs) == 0 {
		t.Skipf("no device: %s", strings.Join(testDevsWhy, "; "))
	}
	return testDevs
}

// Models are the models with GPU learners, each with the recipe it is checked under.
var Models = []struct {
	Task          envs.Task
	Model, Recipe string
}{{envs.TaskMWM, run.ModelMatching, run.RecipePaper}, {envs.TaskMWM, run.ModelPairwise, run.RecipeBest}, {envs.TaskTSP, run.ModelSuccessor, run.RecipeBest},
	{envs.TaskSort, run.ModelFactored, run.RecipeBest}, {envs.TaskSort, run.ModelPairwise, run.RecipeBest},
	{envs.TaskGM, run.ModelGM, run.RecipeBest}, {envs.TaskGM, run.ModelGMSpectral, run.RecipeBest}, {envs.TaskTSP, run.ModelFactored, run.RecipePaper}}

// RecipeConfig is train's configuration of model under recipe on task at size n, resolved as
// train's flags resolve it (run.Choose).
func RecipeConfig(t testing.TB, task envs.Task, model, recipe string, n int) run.Config {
	t.Helper()
	cfg, err := run.Choose(run.DefaultConfig(task, n), run.Choices{Recipe: recipe, Model: model,
		Given: map[string]bool{"task": true, "n": true, "recipe": true, "model": true}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Config is a small configuration of model under recipe for the device tests.
func Config(t testing.TB, task envs.Task, model, recipe string) run.Config {
	cfg := RecipeConfig(t, task, model, recipe, 5)
	cfg.Batch, cfg.Hidden, cfg.SinkhornIters, cfg.Tau = 6, 8, 4, 0.5
	cfg.TrainSize, cfg.ValSize, cfg.TestSize = 60, 12, 12
	return cfg
}

// Spec resolves cfg, a test's configuration, failing the test where it does not validate.
func Spec(t testing.TB, cfg run.Config) *run.Spec {
	t.Helper()
	s, err := run.Resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &s
}

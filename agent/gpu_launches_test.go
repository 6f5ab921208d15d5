package agent

import (
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestGPUBenchLaunchesDoNotGrowWithN: bench on a device counts the kernels and products a step
// starts, and SPG+Matching (paper), SPG+Pairwise (best), SPG+GM (best on gm) and SPG+Factored
// with the tour critic start as many at N = 20, 50 and 100 as bench --device cuda runs them:
// nothing on the device loops over N. On the emulator, and on a GPU where one opens
// (tools/gpu-check.sh), which counts the same calls.
func TestGPUBenchLaunchesDoNotGrowWithN(t *testing.T) {
	for _, dev := range devtest.Devices(t) {
		for _, m := range []struct {
			task          envs.Task
			model, recipe string
		}{{envs.TaskMWM, run.ModelMatching, run.RecipePaper}, {envs.TaskMWM, run.ModelPairwise, run.RecipeBest}, {envs.TaskGM, run.ModelGM, run.RecipeBest},
			{envs.TaskTSP, run.ModelFactored, run.RecipePaper}} {
			t.Run(dev.Name()+"/"+m.model, func(t *testing.T) {
				onDev := func(c run.Spec, _ *device.Device) (learn.Learner, error) { return learn.NewDeviceLearner(c, dev) }
				var first int64
				for _, n := range []int{20, 50, 100} {
					cfg := devtest.RecipeConfig(t, m.task, m.model, m.recipe, n)
					cfg.Batch = 2
					res, err := bench(cfg, BenchOptions{Steps: 1}, nil, onDev)
					if err != nil {
						t.Fatal(err)
					}
					if res.Device != dev.Name() || res.LaunchesPerStep <= 0 {
						t.Fatalf("N = %d: device %q with %d launches a step, want %q and some", n, res.Device, res.LaunchesPerStep, dev.Name())
					}
					t.Logf("N = %d: %d launches a step", n, res.LaunchesPerStep)
					if first == 0 {
						first = res.LaunchesPerStep
					} else if res.LaunchesPerStep != first {
						t.Errorf("N = %d: %d launches a step, %d at N = 20", n, res.LaunchesPerStep, first)
					}
				}
			})
		}
	}
}

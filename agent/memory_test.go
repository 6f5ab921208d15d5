package agent

import (
	"strings"
	"testing"

	"spg-tui/agent/ops/pairops"
	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/sysmem"
)

// TestMemoryEstimate checks that the paper's runs fit on a machine of 8 GiB or more and that
// sizes that cannot fit anywhere are refused before anything is allocated.
func TestMemoryEstimate(t *testing.T) {
	if sysmem.Limit() < 8<<30 {
		t.Skip("needs a machine with at least 8 GiB to tell the paper's runs apart")
	}
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskSort, envs.TaskTSP} {
		for _, n := range []int{10, 20, 50, 100} {
			if err := CheckMemory(run.DefaultConfig(task, n)); err != nil {
				t.Errorf("the paper's %s-%d: %v", task, n, err)
			}
		}
	}
	huge := run.DefaultConfig(envs.TaskMWM, 20)
	huge.Buffer, huge.BufferMem = run.MaxBuffer, 1048575<<30
	if err := CheckMemory(huge); err == nil || !strings.Contains(err.Error(), "needs about") {
		t.Errorf("a 1.5 TiB replay buffer: %v", err)
	}
	deep := run.DefaultConfig(envs.TaskMWM, run.MaxN)
	deep.SinkhornIters = run.MaxSinkhornIters
	if err := CheckMemory(deep); err == nil {
		t.Error("MWM-255 at L = 1000 (about 130 GiB of Sinkhorn iterates) accepted")
	}
	if a, b := MemoryEstimate(run.DefaultConfig(envs.TaskMWM, 20)), MemoryEstimate(run.DefaultConfig(envs.TaskMWM, 50)); !(a < b) {
		t.Errorf("estimate not increasing in n: %d, %d", a, b)
	}
}

// spg-gm-spectral's estimate holds its cache of spectral similarities on top of spg-gm-logstep's,
// which it otherwise is.
func TestMemoryEstimateSpectralCache(t *testing.T) {
	gm2, gm3 := run.DefaultConfig(envs.TaskGM, 50), run.DefaultConfig(envs.TaskGM, 50)
	gm2.Model, gm3.Model = run.ModelGMLogStep, run.ModelGMSpectral
	if d := MemoryEstimate(gm3) - MemoryEstimate(gm2); d != pairops.SpectralCacheBytes {
		t.Errorf("spg-gm-spectral estimates %d bytes more than spg-gm-logstep, want the cache's %d", d, pairops.SpectralCacheBytes)
	}
}

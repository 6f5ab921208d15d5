package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/sysmem"
)

// fakeGPU reads a fixed use.
type fakeGPU struct{ use cuda.GPUUse }

func (g fakeGPU) Read() (cuda.GPUUse, error) { return g.use, nil }

// idle waits for the sampler's background job to end (it walks a directory in memory here).
func idle(t *testing.T, s *sysSampler) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.mu.Lock()
		busy := s.busy
		s.mu.Unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the background job did not end")
		}
		time.Sleep(time.Millisecond)
	}
}

// fakeSampler is a sampler of a process that uses 1.5 s of CPU a second and 412 MiB, in a
// directory of 28 MiB, on a machine whose GPU is gpu (nil: none, NVML absent).
func fakeSampler(gpu gpuMeter) *sysSampler {
	var cpu time.Duration
	return &sysSampler{
		readProc: func(pid int) (sysmem.Proc, error) {
			cpu += 1500 * time.Millisecond
			return sysmem.Proc{CPU: cpu, RSS: 412 << 20}, nil
		},
		dirSize: func(string, int) (int64, bool, error) { return 28 << 20, true, nil },
		openGPU: func() (gpuMeter, error) {
			if gpu == nil {
				return nil, fmt.Errorf("nvml: %w: not found", cuda.ErrNoDriver)
			}
			return gpu, nil
		},
	}
}

// TestSysSampler: the CPU use is the CPU time over the wall time between two readings of
// /proc; the directory and the GPU are read off the console's goroutine; without NVML the GPU
// is left out, cleanly.
func TestSysSampler(t *testing.T) {
	now := time.Unix(1000, 0)
	s := fakeSampler(nil)
	s.sample(now, 7, "runs/x")
	idle(t, s)
	f := s.sample(now.Add(time.Second), 7, "runs/x")
	if !f.hasProc || f.cpu != 150 || f.rss != 412<<20 || !f.hasDir || f.dir != 28<<20 || f.hasGPU {
		t.Errorf("figures %+v", f)
	}
	if got := f.text(false); got != "cpu 150% · rss 412.0 MiB · run dir 28.0 MiB" {
		t.Errorf("long %q", got)
	}
	if got := f.text(true); got != "cpu 150% 412M · dir 28M" {
		t.Errorf("short %q", got)
	}
	// Within a second /proc is not read again; a view of a run nobody trains has no process.
	if g := s.sample(now.Add(1500*time.Millisecond), 7, "runs/x"); g.cpu != 150 {
		t.Errorf("read again within a second: %+v", g)
	}
	if g := s.sample(now.Add(2*time.Second), 0, "runs/x"); g.hasProc {
		t.Errorf("no process, but %+v", g)
	}

	s = fakeSampler(fakeGPU{cuda.GPUUse{Util: 45, MemUsed: 3 << 30, MemAll: 80 << 30}})
	s.sample(now, 7, "runs/x")
	idle(t, s)
	if got := s.sample(now.Add(time.Second), 7, "runs/x").text(false); !strings.HasSuffix(got, " · gpu 45% 3.0/80.0 GiB") {
		t.Errorf("with a GPU: %q", got)
	}
}

// TestSysSamplerReal: this process's own /proc reads, and the real NVML loader, absent on a
// machine without the NVIDIA driver, leaves the GPU out.
func TestSysSamplerReal(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	s := newSysSampler()
	now := time.Now()
	s.sample(now, os.Getpid(), t.TempDir())
	idle(t, s)
	f := s.sample(now.Add(time.Second), os.Getpid(), t.TempDir())
	if !f.hasProc || f.rss <= 0 || !f.hasDir {
		t.Errorf("figures %+v", f)
	}
	if _, err := cuda.OpenNVML(); cuda.Absent(err) && f.hasGPU {
		t.Errorf("no NVML here (%v), but a GPU: %+v", err, f.gpu)
	}
}

// TestGoldenHeaderSystem: the header's second line ends with the system figures, short on a
// narrow screen, the run's details giving way first.
func TestGoldenHeaderSystem(t *testing.T) {
	for _, w := range []int{120, 80} {
		m := fixture(t, envs.TaskMWM, 10, w, 36)
		m.ctx.sys = sysFigures{cpu: 183, rss: 412 << 20, hasProc: true, dir: 28 << 20, hasDir: true, dirAll: true,
			gpu: cuda.GPUUse{Util: 45, MemUsed: 3 << 30, MemAll: 80 << 30}, hasGPU: true}
		golden(t, fmt.Sprintf("pane_header_sys_%d", w), strip(m.header.View()))
	}
}

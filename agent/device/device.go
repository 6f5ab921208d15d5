// Package device chooses where the learners of this process compute, once per process: the
// CPU, or a GPU through spg-tui/linalg/cuda. --device auto (the default) opens the GPU when
// the first model with GPU kernels needs it, and computes on the CPU, saying why, where it does
// not open for any reason; cuda opens it at once and refuses to run without it; cpu never loads
// the driver. The device is not part of a run's identity: checkpoints are the same bytes either
// way.
package device

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/kernels"
)

// The modes of --device.
const (
	Auto = "auto"
	CPU  = "cpu"
	CUDA = "cuda"
)

// Usage is --device's help text after what it decides ("where training runs").
func Usage(what string) string {
	return what + ": auto (the default: an NVIDIA GPU for the models with GPU kernels where one opens, " +
		"else the CPU, saying why), cpu, or cuda (the GPU, or exit 2 naming why it does not open)"
}

// Check refuses a mode that is none of auto, cpu and cuda.
func Check(mode string) error {
	switch mode {
	case Auto, CPU, CUDA:
		return nil
	}
	return fmt.Errorf("--device %q: want auto, cpu or cuda", mode)
}

// Options are what cuda.Open needs to run spg-tui's kernels (linalg/cuda/kernels), with
// compiled PTX kept in cacheDir ("" for none).
func Options(cacheDir string) (cuda.Options, error) {
	names, err := kernels.Names()
	if err != nil {
		return cuda.Options{}, err
	}
	return cuda.Options{Source: kernels.Source(), Kernels: names, CacheDir: cacheDir}, nil
}

// The process's choice: mode ("" until Use), where compiled kernels are kept, who hears of a
// fallback, and, once the GPU was tried, the GPU or why the CPU computes instead.
var (
	mu      sync.Mutex
	mode    string
	ptxDir  string
	notify  func(string)
	tried   bool
	current cuda.Device
	why     string
)

// Use records mode for the process (later calls, with any mode, return nil and change nothing).
// cuda opens the GPU now and returns its one-line refusal; auto opens it on the first Open.
// cacheRoot is the shared cache, whose ptx folder keeps compiled kernels ("" compiles them
// every run). note, where not nil, hears the one line of an auto fallback where a driver was
// found (a machine without one says nothing).
func Use(m, cacheRoot string, note func(line string)) error {
	if err := Check(m); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if mode != "" {
		return nil
	}
	mode, notify = m, note
	if cacheRoot != "" {
		ptxDir = filepath.Join(cacheRoot, "ptx")
	}
	if m == CUDA {
		if err := open(); err != nil {
			return fmt.Errorf("--device cuda: %s", strings.TrimPrefix(err.Error(), "cuda: "))
		}
	}
	return nil
}

// Open is the GPU for a model with GPU kernels, opened on the first call under auto; nil where
// the learner computes on the CPU (CPUName says why).
func Open() cuda.Device {
	mu.Lock()
	defer mu.Unlock()
	if mode == Auto && !tried {
		if err := open(); err != nil {
			// The package's name leads Open's errors; the reason names the GPU already.
			why = "GPU not used: " + strings.TrimPrefix(err.Error(), "cuda: ")
			if errors.Is(err, cuda.ErrNoDriver) {
				why = "no CUDA driver"
			} else if notify != nil {
				notify(cpuName(""))
			}
		}
	}
	return current
}

// open tries the GPU once (mu held).
func open() error {
	tried = true
	opts, err := Options(ptxDir)
	if err != nil {
		return err
	}
	current, err = cuda.Open(opts)
	return err
}

// Current is the GPU in use, or nil for the CPU; it opens nothing.
func Current() cuda.Device {
	mu.Lock()
	defer mu.Unlock()
	return current
}

// CPUName describes the CPU as a learner's device, with why it is not the GPU: "cpu" where
// the process chose no device or chose cpu; "cpu (spg-sequential has no GPU kernels)" for a model
// named by noKernels; else "cpu (no CUDA driver)" or "cpu (GPU not used: cuBLAS not found...)"
// where the GPU did not open.
func CPUName(noKernels string) string {
	mu.Lock()
	defer mu.Unlock()
	return cpuName(noKernels)
}

// cpuName is CPUName with mu held (Open's note).
func cpuName(noKernels string) string {
	switch {
	case mode == "" || mode == CPU:
		return "cpu"
	case noKernels != "":
		return "cpu (" + noKernels + " has no GPU kernels)"
	case why != "":
		return "cpu (" + why + ")"
	}
	return "cpu"
}

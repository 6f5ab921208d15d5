// Package device chooses where training runs, once per process: the CPU, or a GPU through
// spg-tui/linalg/cuda. --device auto (the default) takes the GPU where a CUDA driver loads and
// the CPU otherwise; cuda insists on the GPU; cpu never loads the driver. The device is not part
// of a run's identity: checkpoints are the same bytes either way.
package device

import (
	"errors"
	"fmt"
	"path/filepath"
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

// Usage is --device's help text.
const Usage = "where training runs: auto (the GPU where a CUDA driver loads, else the CPU), cpu, or cuda (fail unless a GPU opens)"

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
	list, err := kernels.List()
	if err != nil {
		return cuda.Options{}, err
	}
	names := make([]string, len(list))
	for i, k := range list {
		names[i] = k.Name
	}
	return cuda.Options{Source: kernels.Source(), Kernels: names, CacheDir: cacheDir}, nil
}

var (
	mu      sync.Mutex
	chosen  bool
	current cuda.Device
	desc    = "cpu"
)

// Use resolves mode once per process (later calls with any mode return the first choice's
// error, nil where it succeeded): cuda fails where no GPU opens; auto falls back to the CPU and
// says why in Name. cacheDir keeps compiled kernels ("" compiles them every run).
func Use(mode, cacheDir string) error {
	if err := Check(mode); err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	if chosen {
		return nil
	}
	chosen = true
	if mode == CPU {
		desc = "cpu"
		return nil
	}
	if cacheDir != "" {
		cacheDir = filepath.Join(cacheDir, "ptx")
	}
	opts, err := Options(cacheDir)
	if err != nil {
		return err
	}
	d, err := cuda.Open(opts)
	switch {
	case err == nil:
		current, desc = d, d.Name()
		return nil
	case mode == Auto && errors.Is(err, cuda.ErrNoDriver):
		desc = "cpu (no CUDA driver)"
		return nil
	}
	desc = "cpu"
	return fmt.Errorf("--device %s: %v", mode, err)
}

// Current is the GPU in use, or nil for the CPU.
func Current() cuda.Device {
	mu.Lock()
	defer mu.Unlock()
	return current
}

// Name describes where training runs, for headers and records: "cpu", "cpu (no CUDA driver)"
// or the GPU's name ("cuda: NVIDIA H200, driver 13.0, sm_90").
func Name() string {
	mu.Lock()
	defer mu.Unlock()
	return desc
}

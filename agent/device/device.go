// Package device is where a command's learners compute: a value the command chooses from its
// --device and passes down to the learners it builds, the CPU or a GPU through
// spg-tui/linalg/cuda. --device auto (the default) opens the GPU when the first model with GPU
// kernels needs it, and computes on the CPU, saying why, where it does not open for any reason;
// cuda opens it at once and refuses to run without it; cpu never loads the driver. The device
// is not part of a run's identity: checkpoints are the same bytes either way.
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

// check refuses a mode that is none of auto, cpu and cuda.
func check(mode string) error {
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

// Device is where one command's learners compute, as its --device chose: the CPU, or a GPU
// opened at once (cuda) or when the first model with GPU kernels asks for it (auto). A nil
// *Device, or a zero Device, is the CPU, as cpu chooses it. Its methods may be called from
// several goroutines; two Devices are independent (each opens its own GPU).
type Device struct {
	mode   string
	ptxDir string       // where compiled kernels are kept; "" compiles them every run
	notify func(string) // who hears of auto's fallback, or nil

	mu    sync.Mutex
	tried bool        // the GPU was tried (it is tried once)
	gpu   cuda.Device // the GPU, once opened
	why   string      // why the GPU did not open, once tried
}

// New is the device of --device mode. cuda opens the GPU now and returns its one-line
// refusal; auto opens it on the first Open. cacheRoot is the shared cache, whose ptx folder
// keeps compiled kernels ("" compiles them every run). note, where not nil, hears the one line
// of an auto fallback where a driver was found (a machine without one says nothing).
func New(mode, cacheRoot string, note func(line string)) (*Device, error) {
	if err := check(mode); err != nil {
		return nil, err
	}
	d := &Device{mode: mode, notify: note}
	if cacheRoot != "" {
		d.ptxDir = filepath.Join(cacheRoot, "ptx")
	}
	if mode == CUDA {
		d.mu.Lock()
		defer d.mu.Unlock()
		if err := d.open(); err != nil {
			return nil, fmt.Errorf("--device cuda: %s", strings.TrimPrefix(err.Error(), "cuda: "))
		}
	}
	return d, nil
}

// Open is the GPU for a model with GPU kernels, opened on the first call under auto; nil where
// the learner computes on the CPU (CPUName says why).
func (d *Device) Open() cuda.Device {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.mode == Auto && !d.tried {
		if err := d.open(); err != nil {
			// The package's name leads Open's errors; the reason names the GPU already.
			d.why = "GPU not used: " + strings.TrimPrefix(err.Error(), "cuda: ")
			if errors.Is(err, cuda.ErrNoDriver) {
				d.why = "no CUDA driver"
			} else if d.notify != nil {
				d.notify(d.cpuName(""))
			}
		}
	}
	return d.gpu
}

// open tries the GPU once (mu held).
func (d *Device) open() error {
	d.tried = true
	opts, err := Options(d.ptxDir)
	if err != nil {
		return err
	}
	d.gpu, err = cuda.Open(opts)
	return err
}

// CPUName describes the CPU as a learner's device, with why it is not the GPU: "cpu" under
// cpu (or a nil Device), whatever the model; "cpu (spg-sequential has no GPU kernels)" for a model named
// by noKernels;
// else "cpu (no CUDA driver)" or "cpu (GPU not used: cuBLAS not found...)" where the GPU did
// not open.
func (d *Device) CPUName(noKernels string) string {
	if d == nil {
		return "cpu"
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cpuName(noKernels)
}

// cpuName is CPUName with mu held (Open's note).
func (d *Device) cpuName(noKernels string) string {
	switch {
	case d.mode == CPU || d.mode == "":
		return "cpu"
	case noKernels != "":
		return "cpu (" + noKernels + " has no GPU kernels)"
	case d.why != "":
		return "cpu (" + d.why + ")"
	}
	return "cpu"
}

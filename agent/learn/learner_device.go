package learn

import (
	"errors"

	"spg-tui/agent/device"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/run"
)

// errNoGPUKernels is NewDeviceLearner's answer for a configuration that has no GPU kernels:
// it trains on the CPU instead.
var errNoGPUKernels = errors.New("no GPU kernels")

// deviceLearner is a model's GPU learner: which of its configurations the device step has
// (kernels), and its builder for those.
type deviceLearner struct {
	kernels func(cfg run.Spec) bool
	build   func(cfg run.Spec, dev cuda.Device) (Learner, error)
}

// NewDeviceLearner returns spec's learner on the GPU dev, or errNoGPUKernels where its model
// (or an option it uses) has none: NewLearner where the GPU is given, not chosen. Above the
// kernels' n (gpulayers.MaxSinkhornN: their potentials are static shared arrays) there are none
// either: a policy decoding at such an n runs on the CPU.
func NewDeviceLearner(spec run.Spec, dev cuda.Device) (Learner, error) {
	d, ok := deviceLearnerOf(spec)
	if !ok {
		return nil, errNoGPUKernels
	}
	return d.build(spec, dev)
}

// deviceLearnerOf is the GPU learner of cfg's model where it has kernels for cfg's options.
func deviceLearnerOf(cfg run.Spec) (deviceLearner, bool) {
	d, ok := deviceLearnerNamed(cfg.Model)
	return d, ok && cfg.N <= gpulayers.MaxSinkhornN && d.kernels(cfg)
}

// hasGPUKernels reports whether cfg's model, with cfg's options, has a GPU learner.
func hasGPUKernels(cfg run.Spec) bool {
	_, ok := deviceLearnerOf(cfg)
	return ok
}

// onDevice is a learner that trains on a GPU.
type onDevice interface {
	deviceName() string
	launches() int64
}

// Launches returns how many kernels and products l's device has started so far
// (cuda.Device.Launches), and false for a learner on the CPU.
func Launches(l Learner) (int64, bool) {
	if d, ok := l.(onDevice); ok {
		return d.launches(), true
	}
	return 0, false
}

// Backend names what computes l's steps (bench's "backend"): the GPU's name, or the CPU's BLAS.
func Backend(l Learner) string {
	if d, ok := l.(onDevice); ok {
		return d.deviceName()
	}
	return backend.Name()
}

// Where says where l, spec's learner on dev, computes, for the run's header and log: Backend,
// followed on the CPU by DeviceName's reason where there is one ("pure Go (gemm avx512) on cpu
// (no CUDA driver)").
func Where(spec run.Spec, l Learner, dev *device.Device) string {
	if name := DeviceName(spec, l, dev); name != "cpu" && name != Backend(l) {
		return Backend(l) + " on " + name
	}
	return Backend(l)
}

// DeviceName names the device of l, spec's learner on dev, for the start record and bench: the
// GPU's name, or "cpu" with why it is not the GPU where there is a why (Device.CPUName).
func DeviceName(spec run.Spec, l Learner, dev *device.Device) string {
	if d, ok := l.(onDevice); ok {
		return d.deviceName()
	}
	switch _, some := deviceLearnerNamed(spec.Model); {
	case hasGPUKernels(spec):
		return dev.CPUName("")
	case some:
		return dev.CPUName(spec.Model + " with these options")
	}
	return dev.CPUName(spec.Model)
}

// releaser is a learner that holds memory outside Go's heap (a GPU's buffers), released when
// its run ends: a console that switches tasks would otherwise keep every earlier run's.
type releaser interface{ release() }

// Release releases l's outside memory where it has any; l is not used after.
func Release(l Learner) {
	if r, ok := l.(releaser); ok {
		r.release()
	}
}

package learn

import (
	"errors"

	"spg-tui/agent/device"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/layers"
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

// deviceLearners are the GPU learners of the models that have one, by model name.
var deviceLearners = map[string]deviceLearner{}

// NewDeviceLearner returns cfg's learner on dev, or errNoGPUKernels where its model (or an
// option it uses) has none; an invalid cfg is refused with Validate's message.
func NewDeviceLearner(cfg run.Config, dev cuda.Device) (Learner, error) {
	spec, err := run.ResolveModel(cfg)
	if err != nil {
		return nil, err
	}
	return newDeviceLearner(spec, dev)
}

// newDeviceLearner is NewDeviceLearner of a resolved configuration. Above the kernels' n
// (layers.MaxSinkhornN: their potentials are static shared arrays) there are none either: a
// policy decoding at such an n runs on the CPU.
func newDeviceLearner(cfg run.Spec, dev cuda.Device) (Learner, error) {
	if !hasGPUKernels(cfg) {
		return nil, errNoGPUKernels
	}
	return deviceLearners[cfg.Model].build(cfg, dev)
}

// hasGPUKernels reports whether cfg's model, with cfg's options, has a GPU learner.
func hasGPUKernels(cfg run.Spec) bool {
	d, ok := deviceLearners[cfg.Model]
	return ok && cfg.N <= layers.MaxSinkhornN && d.kernels(cfg)
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

// Where says where l, cfg's learner, computes, for the run's header and log: Backend, followed
// on the CPU by DeviceName's reason where there is one ("pure Go (gemm avx512) on cpu (no CUDA
// driver)").
func Where(cfg run.Config, l Learner) string {
	if name := DeviceName(cfg, l); name != "cpu" && name != Backend(l) {
		return Backend(l) + " on " + name
	}
	return Backend(l)
}

// DeviceName names the device of l, cfg's learner, for the start record and bench: the GPU's
// name, or "cpu" with why it is not the GPU where there is a why (package device's CPUName).
func DeviceName(cfg run.Config, l Learner) string {
	if d, ok := l.(onDevice); ok {
		return d.deviceName()
	}
	spec, err := run.Resolve(cfg)
	switch _, some := deviceLearners[cfg.Model]; {
	case err != nil || hasGPUKernels(spec):
		return device.CPUName("")
	case some:
		return device.CPUName(cfg.Model + " with these options")
	}
	return device.CPUName(cfg.Model)
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

package learn

import (
	"errors"
	"fmt"

	"spg-tui/agent/device"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/layers"
	"spg-tui/run"
)

// errNoGPUKernels is NewDeviceLearner's answer for a configuration that has no GPU kernels:
// it trains on the CPU instead.
var errNoGPUKernels = errors.New("no GPU kernels")

// deviceLearners build the GPU learners of the models that have one, by model name.
var deviceLearners = map[string]func(cfg run.Spec, dev cuda.Device) (Learner, error){}

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
	build, ok := deviceLearners[cfg.Model]
	if !ok || cfg.N > layers.MaxSinkhornN {
		return nil, errNoGPUKernels
	}
	return build(cfg, dev)
}

// onDevice is a learner that trains on a GPU.
type onDevice interface{ deviceName() string }

// Backend says where l computes, for the run's header and records: the GPU's name, or
// the CPU's BLAS, with a note where a GPU is open but l's model has no kernels for it.
func Backend(cfg run.Config, l Learner) string {
	if d, ok := l.(onDevice); ok {
		return d.deviceName()
	}
	if device.Current() != nil {
		return fmt.Sprintf("%s (%s has no GPU kernels)", backend.Name(), cfg.Model)
	}
	return backend.Name()
}

// DeviceName names the device of l for the start record: the GPU's name or "cpu".
func DeviceName(l Learner) string {
	if d, ok := l.(onDevice); ok {
		return d.deviceName()
	}
	return "cpu"
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

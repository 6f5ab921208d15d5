package devtest

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/linalg/cuda"
)

// Model is an element of Models: a model with a GPU learner and the task and recipe it is
// checked under.
type Model = struct {
	Task          envs.Task
	Model, Recipe string
}

// EachModel runs f as the subtest device/model for each of the Models on each of the Devices.
func EachModel(t *testing.T, f func(t *testing.T, dev cuda.Device, m Model)) {
	t.Helper()
	for _, dev := range Devices(t) {
		for _, m := range Models {
			t.Run(dev.Name()+"/"+m.Model, func(t *testing.T) { f(t, dev, m) })
		}
	}
}

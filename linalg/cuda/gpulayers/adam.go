package gpulayers

import (
	"fmt"
	"math"

	"spg-tui/linalg/cuda"
)

// Adam holds the hyperparameters and step count of an Adam optimiser whose moments live on the
// device, as agent/learn/adam.go's adam: PyTorch's formulation with clip_grad_norm_'s factor.
type Adam struct {
	Beta1, Beta2, Eps float64
	Step              int // steps taken; Update increments it first
}

// Update takes one step on the parameter buffers params with moments m and v (each the
// length of its parameter buffer) and gradients grads times scale (see GradNorm): the
// bias-corrected moments' constants are computed in double as on the CPU.
func (a *Adam) Update(dev cuda.Device, params, m, v, grads []cuda.Buf, lr, scale float64) error {
	if len(m) != len(params) || len(v) != len(params) || len(grads) != len(params) {
		return fmt.Errorf("Adam: %d parameters, %d m, %d v, %d gradients", len(params), len(m), len(v), len(grads))
	}
	for i, p := range params {
		if m[i].N < p.N || v[i].N < p.N || grads[i].N < p.N {
			return fmt.Errorf("Adam: parameter %d has %d elements, m %d, v %d, gradient %d", i, p.N, m[i].N, v[i].N, grads[i].N)
		}
	}
	a.Step++
	t := float64(a.Step)
	stepSize := float32(lr / (1 - math.Pow(a.Beta1, t)))
	invSqrtBC2 := float32(1 / math.Sqrt(1-math.Pow(a.Beta2, t)))
	for i, p := range params {
		if p.N == 0 {
			continue
		}
		if err := dev.Launch("adam_update", grid1(p.N, elementBlock), cuda.D1(elementBlock), p, m[i], v[i], grads[i], i32(p.N),
			stepSize, invSqrtBC2, float32(a.Beta1), float32(a.Beta2), float32(1-a.Beta1), float32(1-a.Beta2),
			float32(a.Eps), float32(scale)); err != nil {
			return err
		}
	}
	return nil
}

// GradNorm returns the L2 norm of all grads together, accumulated in double; scratch holds at
// least 2*len(grads) floats. It waits for the device: the norm comes back to the host.
func GradNorm(dev cuda.Device, scratch cuda.Buf, grads ...cuda.Buf) (float64, error) {
	if scratch.N < 2*len(grads) {
		return 0, fmt.Errorf("GradNorm: scratch has %d elements, want %d", scratch.N, 2*len(grads))
	}
	for i, g := range grads {
		if err := dev.Launch("sum_squares", cuda.D1(1), cuda.D1(256), scratch.At(2*i, 2), g, i32(g.N)); err != nil {
			return 0, err
		}
	}
	parts := make([]float32, 2*len(grads))
	if err := dev.Download(parts, scratch); err != nil {
		return 0, err
	}
	var s float64
	for _, p := range parts {
		s += float64(p)
	}
	return math.Sqrt(s), nil
}

package pairops

import (
	"fmt"
	"spg-tui/agent/ops"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Centre adds x less its per-instance centroid as one node: for x (B, N, K) it gives
// y[b,i,k] = x[b,i,k] - mean_i' x[b,i',k]. x is data: no gradient flows back into it.
func Centre(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&centre[float32]{}, x)
	}
	return ops.Apply(&centre[float64]{}, x)
}

// centre is the ops.Kernel of a Centre node.
type centre[T ops.Float] struct{}

func (k *centre[T]) Name() string { return "Centre" }

func (k *centre[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] < 1 {
		return nil, fmt.Errorf("input shape %v, want (B, N, K)", in)
	}
	return in[0].Clone(), nil
}

func (k *centre[T]) Differentiable(int) bool { return false }

func (k *centre[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n, w := s[0], s[1], s[2]
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	for bi := range b {
		xs, ys := x[bi*n*w:][:n*w], y[bi*n*w:][:n*w]
		for f := range w {
			var sum T
			for i := range n {
				sum += xs[i*w+f]
			}
			mean := sum / T(n)
			for i := range n {
				ys[i*w+f] = xs[i*w+f] - mean
			}
		}
	}
	return nil
}

func (k *centre[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}

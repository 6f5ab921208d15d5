package layers

import (
	"fmt"
	"spg-tui/agent/ops"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BarDiagonal adds x (B, N, N) with every diagonal entry replaced by the constant bar as one node:
// the successor action's scores, where X_ii = bar (a large negative number) keeps Sinkhorn's
// mass and the Hungarian rounding off the self-loops i -> i. Off the diagonal the gradient passes
// unchanged; on it, it is zero.
func BarDiagonal(x *G.Node, bar float64) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&barDiagonal[float32]{bar: float32(bar)}, x)
	}
	return ops.Apply(&barDiagonal[float64]{bar: bar}, x)
}

// barDiagonal is the ops.Kernel of a BarDiagonal node.
type barDiagonal[T ops.Float] struct{ bar T }

func (k *barDiagonal[T]) Name() string { return "BarDiagonal" }

func (k *barDiagonal[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != in[0][2] {
		return nil, fmt.Errorf("input shape %v, want (B, N, N)", in)
	}
	return in[0].Clone(), nil
}

func (k *barDiagonal[T]) Differentiable(int) bool { return true }

func (k *barDiagonal[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	y := ops.Data[T](out)
	copy(y, ops.Data[T](in[0]))
	setDiagonal(y, in[0].Shape()[1], k.bar)
	return nil
}

func (k *barDiagonal[T]) Backward(_ []*tensor.Dense, _, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	dx := ops.Data[T](dIn[0])
	copy(dx, ops.Data[T](dOut))
	setDiagonal(dx, dOut.Shape()[1], 0)
	return nil
}

// setDiagonal sets the diagonal of every n x n matrix of x to v.
func setDiagonal[T ops.Float](x []T, n int, v T) {
	for m := 0; m < len(x); m += n * n {
		for i := range n {
			x[m+i*n+i] = v
		}
	}
}

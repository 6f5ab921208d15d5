package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
)

// Add gives a + b, for a and b of one shape, as one node whose passes run over the cores:
// gorgonia's own Add allocates its sum and adds on one core, a serial millisecond per action
// for the paper's critic at N = 50 (B N x H = 819K elements). The sum and the gradients are
// gorgonia's, bit for bit.
func Add(a, b *G.Node) (*G.Node, error) {
	if a != nil && a.Dtype() == tensor.Float32 {
		return ops.Apply(&add[float32]{}, a, b)
	}
	return ops.Apply(&add[float64]{}, a, b)
}

// add is the ops.Kernel of an Add node.
type add[T ops.Float] struct{}

func (k *add[T]) Name() string { return "Add" }

func (k *add[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || !in[0].Eq(in[1]) {
		return nil, fmt.Errorf("input shapes %v, want a and b of one shape", in)
	}
	return in[0].Clone(), nil
}

func (k *add[T]) Differentiable(int) bool { return true }

func (k *add[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	a, b, o := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	rowBlocks(len(o), 3, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = a[i] + b[i]
		}
	})
	return nil
}

// Backward passes dOut to both inputs.
func (k *add[T]) Backward(_ []*tensor.Dense, _, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	g := ops.Data[T](dOut)
	rowBlocks(len(g), 3, func(_, lo, hi int) {
		for _, d := range dIn {
			if d != nil {
				copy(ops.Data[T](d)[lo:hi], g[lo:hi])
			}
		}
	})
	return nil
}

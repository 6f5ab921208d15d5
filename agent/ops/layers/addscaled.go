package layers

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/linalg/backend"
)

// AddScaled adds y + alpha p as one node, for y and p of one shape and a learned step alpha
// (1, 1): a graph-matching consensus round's update. It gives what Add(y, Dense(p as a column,
// alpha)) gives, bit for bit, without running a product of inner dimension 1 over every
// element (the GEMM's tiles cost about 70 ns a row there).
func AddScaled(y, p, alpha *G.Node) (*G.Node, error) {
	if y != nil && y.Dtype() == tensor.Float32 {
		return ops.Apply(&addScaled[float32]{}, y, p, alpha)
	}
	return ops.Apply(&addScaled[float64]{}, y, p, alpha)
}

// addScaled is the ops.Kernel of an AddScaled node.
type addScaled[T ops.Float] struct{}

func (k *addScaled[T]) Name() string { return "AddScaled" }

func (k *addScaled[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 3 || !in[0].Eq(in[1]) || in[2].Dims() != 2 || in[2][0] != 1 || in[2][1] != 1 {
		return nil, fmt.Errorf("input shapes %v, want y and p of one shape and alpha (1, 1)", in)
	}
	return in[0].Clone(), nil
}

func (k *addScaled[T]) Differentiable(int) bool { return true }

// Forward rounds alpha p before adding y, as the product and the sum of the composition do (the
// conversion keeps the compiler from fusing them into one rounding).
func (k *addScaled[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	y, p, o := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	a := ops.Data[T](in[2])[0]
	rowBlocks(len(o), 3, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			o[i] = y[i] + T(a*p[i])
		}
	})
	return nil
}

// Backward passes dOut to y, alpha dOut to p, and sum p dOut to alpha, the last as the
// composition's Dense does (one product of inner dimension len(p)), so with the same rounding.
func (k *addScaled[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	p, g := ops.Data[T](in[1]), ops.Data[T](dOut)
	a := ops.Data[T](in[2])[0]
	dy, dp := ops.Data[T](dIn[0]), ops.Data[T](dIn[1])
	rowBlocks(len(g), 3, func(_, lo, hi int) {
		copy(dy[lo:hi], g[lo:hi])
		for i := lo; i < hi; i++ {
			dp[i] = a * g[i]
		}
	})
	backend.GemmParallel(blas.Trans, blas.NoTrans, 1, 1, len(p), 1, p, 1, g, 1, 0, ops.Data[T](dIn[2]), 1)
	return nil
}

package ops

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/parallel"
)

// DenseOptions configures one Dense node.
type DenseOptions struct {
	// Act is applied to x w + b.
	Act Activation
	// NoInputGrad marks x as data: its gradient is not computed.
	NoInputGrad bool
	// Frozen marks w and b as constants of this graph (the critic inside the actor's update):
	// their gradients are not computed.
	Frozen bool
}

// Dense adds the fully connected layer y = act(x w + b) as one node. x has shape (..., in) and
// is treated as a matrix of rows of length in; w is (in, out); b is (out) or nil for no bias; y
// has x's shape with the last axis replaced by out. One GEMM forward and at most two backward,
// with bias, activation and their gradients fused in: no broadcast, reshape or extra nodes.
func Dense(x, w, b *G.Node, o DenseOptions) (*G.Node, error) {
	if !o.Act.valid() {
		return nil, fmt.Errorf("ops: Dense: unknown activation %v", o.Act)
	}
	in := []*G.Node{x, w}
	if b != nil {
		in = append(in, b)
	}
	if x != nil && x.Dtype() == tensor.Float32 {
		return Apply(&denseKernel[float32]{o: o}, in...)
	}
	return Apply(&denseKernel[float64]{o: o}, in...)
}

// denseKernel is the Kernel of a Dense node.
type denseKernel[T Float] struct {
	o       DenseOptions
	g, ones []T // activation gradient and the ones for bias sums, reused between runs
}

func (k *denseKernel[T]) Name() string { return "Dense" }

func (k *denseKernel[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) < 2 || len(in) > 3 || in[0].Dims() < 1 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("input shapes %v, want x (..., in), w (in, out) [, b (out)]", in)
	}
	x, w := in[0], in[1]
	if x[x.Dims()-1] != w[0] {
		return nil, fmt.Errorf("x %v and w %v do not multiply", x, w)
	}
	if len(in) == 3 && (in[2].Dims() != 1 || in[2][0] != w[1]) {
		return nil, fmt.Errorf("bias shape %v, want (%d)", in[2], w[1])
	}
	out := x.Clone()
	out[out.Dims()-1] = w[1]
	return out, nil
}

func (k *denseKernel[T]) Differentiable(i int) bool {
	if i == 0 {
		return !k.o.NoInputGrad
	}
	return !k.o.Frozen
}

// dims returns the rows, input and output widths.
func (k *denseKernel[T]) dims(in []*tensor.Dense) (rows, nIn, nOut int) {
	w := in[1].Shape()
	return in[0].Shape().TotalSize() / w[0], w[0], w[1]
}

func (k *denseKernel[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	rows, nIn, nOut := k.dims(in)
	x, w, y := Data[T](in[0]), Data[T](in[1]), Data[T](out)
	gemm(blas.NoTrans, blas.NoTrans, rows, nOut, nIn, 1, x, nIn, w, nOut, 0, y, nOut)
	var b []T
	if len(in) == 3 {
		b = Data[T](in[2])
	}
	if b == nil && k.o.Act == Identity {
		return nil
	}
	finish := func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			yr := y[r*nOut : (r+1)*nOut]
			if b != nil {
				for j, v := range b[:len(yr)] {
					yr[j] += v
				}
			}
			activate(k.o.Act, yr)
		}
	}
	if rows*nOut < minParallelElems {
		finish(0, 0, rows)
	} else {
		parallel.For(rows, finish)
	}
	return nil
}

func (k *denseKernel[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	rows, nIn, nOut := k.dims(in)
	x, w, y, dy := Data[T](in[0]), Data[T](in[1]), Data[T](out), Data[T](dOut)
	g := dy
	if k.o.Act != Identity {
		k.g = grow(k.g, len(dy))
		g = k.g
		activationGrad(k.o.Act, g, dy, y)
	}
	if dIn[0] != nil {
		gemm(blas.NoTrans, blas.Trans, rows, nIn, nOut, 1, g, nOut, w, nOut, 0, Data[T](dIn[0]), nIn)
	}
	if dIn[1] != nil {
		gemm(blas.Trans, blas.NoTrans, nIn, nOut, rows, 1, x, nIn, g, nOut, 0, Data[T](dIn[1]), nOut)
	}
	if len(dIn) == 3 && dIn[2] != nil {
		k.ones = onesOf(k.ones, rows)
		colSums(rows, nOut, g, nOut, k.ones, Data[T](dIn[2]))
	}
	return nil
}

// minParallelElems is the tensor size above which elementwise loops are split over goroutines;
// below it the goroutine start-up costs more than it saves.
const minParallelElems = 1 << 15

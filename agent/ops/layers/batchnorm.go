package layers

import (
	"errors"
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/batchnorm"
)

// BatchNormOptions configures one training-mode BatchNorm node.
type BatchNormOptions struct {
	// Act is applied to the normalised output.
	Act Activation
	// Frozen marks gamma and beta as constants of this graph (the critic inside the actor's
	// update): their gradients are not wanted.
	Frozen bool
}

// BatchNorm adds training-mode batch normalisation of x (B, C, F) as one node: PyTorch's
// BatchNorm1d(C) (statistics per channel over the B*F values, biased variance, eps 1e-5) with
// gamma and beta of length C, followed by o.Act. The returned layer folds each run's batch
// statistics into running estimates on request.
func BatchNorm(x, gamma, beta *G.Node, o BatchNormOptions) (*G.Node, *BatchNormLayer, error) {
	if !o.Act.valid() {
		return nil, nil, fmt.Errorf("ops: BatchNorm: unknown activation %v", o.Act)
	}
	var k interface {
		ops.Kernel
		bnStats
	}
	if x != nil && x.Dtype() == tensor.Float32 {
		k = &bnKernel[float32]{o: o}
	} else {
		k = &bnKernel[float64]{o: o}
	}
	n, err := ops.Apply(k, x, gamma, beta)
	if err != nil {
		return nil, nil, err
	}
	return n, &BatchNormLayer{stats: k}, nil
}

// BatchNormLayer is the handle of one training-mode BatchNorm node.
type BatchNormLayer struct{ stats bnStats }

// bnStats is what a BatchNormLayer needs from its kernel.
type bnStats interface {
	updateRunning(runMean, runVar *tensor.Dense, momentum float64) error
}

// UpdateRunning folds the batch statistics of the node's last run into runMean and runVar
// (length C, the graph's dtype) as PyTorch does in training mode: run = (1-momentum) run +
// momentum stat, with the unbiased variance. Call it after a run, before the next.
func (l *BatchNormLayer) UpdateRunning(runMean, runVar *tensor.Dense, momentum float64) error {
	return l.stats.updateRunning(runMean, runVar, momentum)
}

// bnKernel is the ops.Kernel of a training-mode BatchNorm node.
type bnKernel[T ops.Float] struct {
	o           BatchNormOptions
	b, c, f     int // of the last run; b == 0 before the first
	mean, invSt []T // per channel, from Forward
	g           []T // gradient before the activation
}

func (k *bnKernel[T]) Name() string { return "BatchNorm" }

func (k *bnKernel[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	return bnShape(in, 3)
}

// bnShape checks x (B, C, F) followed by nVec-1 vectors of length C.
func bnShape(in []tensor.Shape, nVec int) (tensor.Shape, error) {
	if len(in) != nVec || in[0].Dims() != 3 {
		return nil, fmt.Errorf("input shapes %v, want x (B, C, F) and %d vectors (C)", in, nVec-1)
	}
	for _, s := range in[1:] {
		if s.Dims() != 1 || s[0] != in[0][1] {
			return nil, fmt.Errorf("input shapes %v, want x (B, C, F) and %d vectors (C)", in, nVec-1)
		}
	}
	return in[0].Clone(), nil
}

func (k *bnKernel[T]) Differentiable(i int) bool { return i == 0 || !k.o.Frozen }

func (k *bnKernel[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	k.b, k.c, k.f = s[0], s[1], s[2]
	k.mean, k.invSt = kern.Grow(k.mean, k.c), kern.Grow(k.invSt, k.c)
	y := ops.Data[T](out)
	batchnorm.Forward(y, ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](in[2]), k.b, k.c, k.f, batchnorm.DefaultEps, k.mean, k.invSt)
	rowBlocks(k.b*k.c, k.f, func(_, lo, hi int) {
		activate(k.o.Act, y[lo*k.f:hi*k.f])
	})
	return nil
}

func (k *bnKernel[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	g := ops.Data[T](dOut)
	if k.o.Act != Identity {
		k.g = kern.Grow(k.g, len(g))
		y, dy := ops.Data[T](out), g
		rowBlocks(k.b*k.c, k.f, func(_, lo, hi int) {
			activationGrad(k.o.Act, k.g[lo*k.f:hi*k.f], dy[lo*k.f:hi*k.f], y[lo*k.f:hi*k.f])
		})
		g = k.g
	}
	var d [3][]T // nil where not wanted (frozen gamma and beta)
	for i := range d {
		if dIn[i] != nil {
			d[i] = ops.Data[T](dIn[i])
		}
	}
	batchnorm.Backward(d[0], d[1], d[2], g, ops.Data[T](in[0]), ops.Data[T](in[1]), k.mean, k.invSt, k.b, k.c, k.f)
	return nil
}

func (k *bnKernel[T]) updateRunning(runMean, runVar *tensor.Dense, momentum float64) error {
	if k.b == 0 {
		return errors.New("ops: BatchNorm: UpdateRunning before any run")
	}
	for _, t := range []*tensor.Dense{runMean, runVar} {
		if t == nil || t.Shape().TotalSize() != k.c || t.Dtype() != tensor.Float32 && t.Dtype() != tensor.Float64 {
			return fmt.Errorf("ops: BatchNorm: running statistics must be %d-element float tensors", k.c)
		}
		if _, ok := t.Data().([]T); !ok {
			return fmt.Errorf("ops: BatchNorm: running statistics have dtype %v, the layer another", t.Dtype())
		}
	}
	batchnorm.UpdateRunning(ops.Data[T](runMean), ops.Data[T](runVar), k.mean, k.invSt, k.b*k.f, T(momentum), T(batchnorm.DefaultEps))
	return nil
}

// BatchNormInference adds inference-mode batch normalisation of x (B, C, F) as one node: the
// running statistics runMean and runVar (length C) replace the batch's, followed by act. It is
// for evaluation only: no input is differentiable.
func BatchNormInference(x, gamma, beta, runMean, runVar *G.Node, act Activation) (*G.Node, error) {
	if !act.valid() {
		return nil, fmt.Errorf("ops: BatchNormInference: unknown activation %v", act)
	}
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&bnInference[float32]{act: act}, x, gamma, beta, runMean, runVar)
	}
	return ops.Apply(&bnInference[float64]{act: act}, x, gamma, beta, runMean, runVar)
}

// bnInference is the ops.Kernel of an inference-mode BatchNorm node.
type bnInference[T ops.Float] struct{ act Activation }

func (k *bnInference[T]) Name() string { return "BatchNormInference" }

func (k *bnInference[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	return bnShape(in, 5)
}

func (k *bnInference[T]) Differentiable(int) bool { return false }

func (k *bnInference[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	y := ops.Data[T](out)
	batchnorm.Inference(y, ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](in[2]), ops.Data[T](in[3]), ops.Data[T](in[4]),
		s[0], s[1], s[2], batchnorm.DefaultEps)
	rowBlocks(s[0]*s[1], s[2], func(_, lo, hi int) {
		activate(k.act, y[lo*s[2]:hi*s[2]])
	})
	return nil
}

func (k *bnInference[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return errors.New("inference-mode batch norm has no gradient")
}

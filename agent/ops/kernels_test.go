package ops

import (
	"errors"
	"fmt"
	"math"

	"gorgonia.org/tensor"
)

// Toy kernels with hand-written backward passes, generic over the element type.

// matMul is out = x·w for x (m,k) and w (k,n). frozen marks inputs as not differentiable.
type matMul[T Float] struct {
	frozen [2]bool
}

func (k *matMul[T]) Name() string { return "matmul" }

func (k *matMul[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 2 || in[1].Dims() != 2 || in[0][1] != in[1][0] {
		return nil, fmt.Errorf("shapes %v do not multiply", in)
	}
	return tensor.Shape{in[0][0], in[1][1]}, nil
}

func (k *matMul[T]) Differentiable(i int) bool { return !k.frozen[i] }

func (k *matMul[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	m, kk, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	x, w, o := Data[T](in[0]), Data[T](in[1]), Data[T](out)
	for i := range m {
		for j := range n {
			var s T
			for l := range kk {
				s += x[i*kk+l] * w[l*n+j]
			}
			o[i*n+j] = s
		}
	}
	return nil
}

func (k *matMul[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	for i := range dIn {
		if (dIn[i] == nil) != k.frozen[i] {
			return errors.New("dIn does not match Differentiable")
		}
	}
	m, kk, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	x, w, g := Data[T](in[0]), Data[T](in[1]), Data[T](dOut)
	if dIn[0] != nil { // dx = g·wᵀ
		dx := Data[T](dIn[0])
		for i := range m {
			for l := range kk {
				var s T
				for j := range n {
					s += g[i*n+j] * w[l*n+j]
				}
				dx[i*kk+l] = s
			}
		}
	}
	if dIn[1] != nil { // dw = xᵀ·g
		dw := Data[T](dIn[1])
		for l := range kk {
			for j := range n {
				var s T
				for i := range m {
					s += x[i*kk+l] * g[i*n+j]
				}
				dw[l*n+j] = s
			}
		}
	}
	return nil
}

// gate is out = sigmoid(x) ⊙ y. Forward saves sigmoid(x) in the kernel, as a fused layer saves
// its intermediates, so two applications sharing state would give wrong gradients.
type gate[T Float] struct {
	sig []T
}

func (k *gate[T]) Name() string { return "gate" }

func (k *gate[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || !in[0].Eq(in[1]) {
		return nil, fmt.Errorf("shapes %v differ", in)
	}
	return in[0].Clone(), nil
}

func (k *gate[T]) Differentiable(int) bool { return true }

func (k *gate[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	x, y, o := Data[T](in[0]), Data[T](in[1]), Data[T](out)
	if len(k.sig) != len(x) {
		k.sig = make([]T, len(x))
	}
	for i, v := range x {
		k.sig[i] = T(1 / (1 + math.Exp(-float64(v))))
		o[i] = k.sig[i] * y[i]
	}
	return nil
}

func (k *gate[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	y, g := Data[T](in[1]), Data[T](dOut)
	dx, dy := Data[T](dIn[0]), Data[T](dIn[1])
	for i, s := range k.sig {
		dx[i] = g[i] * y[i] * s * (1 - s)
		dy[i] = g[i] * s
	}
	return nil
}

// scale is out = c·x; it tells two applications with equal inputs apart.
type scale[T Float] struct {
	c T
}

func (k *scale[T]) Name() string                                     { return "scale" }
func (k *scale[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) { return in[0].Clone(), nil }
func (k *scale[T]) Differentiable(int) bool                          { return true }

func (k *scale[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	x, o := Data[T](in[0]), Data[T](out)
	for i, v := range x {
		o[i] = k.c * v
	}
	return nil
}

func (k *scale[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	g, dx := Data[T](dOut), Data[T](dIn[0])
	for i, v := range g {
		dx[i] = k.c * v
	}
	return nil
}

// panicky panics in the pass named by where, as a kernel with a bug would.
type panicky struct {
	where string
}

func (k *panicky) Name() string                                     { return "panicky" }
func (k *panicky) OutShape(in []tensor.Shape) (tensor.Shape, error) { return in[0].Clone(), nil }
func (k *panicky) Differentiable(int) bool                          { return true }

func (k *panicky) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	if k.where == "forward" {
		panic("forward bug")
	}
	copy(Data[float64](out), Data[float64](in[0]))
	return nil
}

func (k *panicky) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	panic("backward bug")
}

// tanhK is out = tanh(x); its backward reads the forward output.
type tanhK[T Float] struct{}

func (k *tanhK[T]) Name() string                                     { return "tanh" }
func (k *tanhK[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) { return in[0].Clone(), nil }
func (k *tanhK[T]) Differentiable(int) bool                          { return true }

func (k *tanhK[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	x, o := Data[T](in[0]), Data[T](out)
	for i, v := range x {
		o[i] = T(math.Tanh(float64(v)))
	}
	return nil
}

func (k *tanhK[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	o, g, dx := Data[T](out), Data[T](dOut), Data[T](dIn[0])
	for i, v := range o {
		dx[i] = g[i] * (1 - v*v)
	}
	return nil
}

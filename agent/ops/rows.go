package ops

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Rows adds x[:, lo:hi, :] of x (B, R, C) as one node, (B, hi-lo, C): gorgonia's Slice without
// its element-by-element iterator. data marks x as data: no gradient is computed for it.
func Rows(x *G.Node, lo, hi int, data bool) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return Apply(&rows[float32]{lo: lo, hi: hi, data: data}, x)
	}
	return Apply(&rows[float64]{lo: lo, hi: hi, data: data}, x)
}

// rows is the Kernel of a Rows node.
type rows[T Float] struct {
	lo, hi int
	data   bool
}

func (k *rows[T]) Name() string { return fmt.Sprintf("Rows(%d:%d)", k.lo, k.hi) }

func (k *rows[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 {
		return nil, fmt.Errorf("input shape %v, want (B, R, C)", in)
	}
	if k.lo < 0 || k.hi <= k.lo || k.hi > in[0][1] {
		return nil, fmt.Errorf("rows %d:%d of input shape %v, want 0 <= lo < hi <= %d", k.lo, k.hi, in[0], in[0][1])
	}
	return tensor.Shape{in[0][0], k.hi - k.lo, in[0][2]}, nil
}

func (k *rows[T]) Differentiable(int) bool { return !k.data }

func (k *rows[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, r, c := s[0], s[1], s[2]
	x, y := Data[T](in[0]), Data[T](out)
	w := (k.hi - k.lo) * c
	for g := range b {
		copy(y[g*w:][:w], x[(g*r+k.lo)*c:][:w])
	}
	return nil
}

// Backward writes dY into the rows taken and zeros elsewhere.
func (k *rows[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := in[0].Shape()
	b, r, c := s[0], s[1], s[2]
	dy, dx := Data[T](dOut), Data[T](dIn[0])
	clear(dx)
	w := (k.hi - k.lo) * c
	for g := range b {
		copy(dx[(g*r+k.lo)*c:][:w], dy[g*w:][:w])
	}
	return nil
}

package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
)

// BarFar adds scores x (B, N, N) with every pair outside the candidate graph set to the constant
// bar, as one node: a pair (i, j) is a candidate when one of its features f (B, N, N, W) at the
// columns near is below 1, their cap (linalg/pairs.TourLocal's ranks: j among i's nearest cities
// or i among j's). The successor actor then scores only a neighbourhood of each city, of the same
// size at every N, and its rounding never takes an edge it was not trained to score. Where kept,
// the gradient passes unchanged; where barred it is zero. f is data: no gradient flows into it.
func BarFar(x, f *G.Node, near []int, bar float64) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&barFar[float32]{near: near, bar: float32(bar)}, x, f)
	}
	return ops.Apply(&barFar[float64]{near: near, bar: bar}, x, f)
}

// barFar is the ops.Kernel of a BarFar node.
type barFar[T ops.Float] struct {
	near []int
	bar  T
}

func (k *barFar[T]) Name() string { return "BarFar" }

func (k *barFar[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 3 || in[0][1] != in[0][2] || in[1].Dims() != 4 ||
		in[1][0] != in[0][0] || in[1][1] != in[0][1] || in[1][2] != in[0][2] {
		return nil, fmt.Errorf("input shapes %v, want (B, N, N) and (B, N, N, W)", in)
	}
	for _, c := range k.near {
		if c < 0 || c >= in[1][3] {
			return nil, fmt.Errorf("feature %d of %d", c, in[1][3])
		}
	}
	return in[0].Clone(), nil
}

func (k *barFar[T]) Differentiable(i int) bool { return i == 0 }

func (k *barFar[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	x, f, y := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	k.mask(y, x, f, k.bar)
	return nil
}

func (k *barFar[T]) Backward(in []*tensor.Dense, _, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	k.mask(ops.Data[T](dIn[0]), ops.Data[T](dOut), ops.Data[T](in[1]), 0)
	return nil
}

// mask writes src into dst with every pair whose features f are all at their caps set to v.
func (k *barFar[T]) mask(dst, src, f []T, v T) {
	w := len(f) / len(src)
	for p, s := range src {
		dst[p] = v
		if candidate(f[p*w:][:w], k.near) {
			dst[p] = s
		}
	}
}

// candidate reports whether a pair with features f is in the candidate graph: one of its
// features at the columns near is below 1, their cap.
func candidate[T ops.Float](f []T, near []int) bool {
	for _, c := range near {
		if f[c] < 1 {
			return true
		}
	}
	return false
}

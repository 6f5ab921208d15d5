package pairops

import (
	"fmt"
	"math"
	"spg-tui/agent/ops"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// PairDistances adds the Euclidean distances between two point sets as one node: for states x
// (B, 2N, 2), the N points of A then the N points of B, it gives D (B, N, N) with D_ij =
// |b_i - a_j|, row i for B's point and column j for A's, as the pair features (pairs.Matching)
// and the actions' rows and columns are laid out. x is data: no gradient flows back into it.
// The exact critic scores actions with it.
func PairDistances(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&pairDistances[float32]{}, x)
	}
	return ops.Apply(&pairDistances[float64]{}, x)
}

// pairDistances is the ops.Kernel of a PairDistances node.
type pairDistances[T ops.Float] struct{}

func (k *pairDistances[T]) Name() string { return "PairDistances" }

func (k *pairDistances[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][2] != 2 || in[0][1]%2 != 0 {
		return nil, fmt.Errorf("input shape %v, want (B, 2N, 2): two point sets", in)
	}
	s := in[0]
	return tensor.Shape{s[0], s[1] / 2, s[1] / 2}, nil
}

func (k *pairDistances[T]) Differentiable(int) bool { return false }

func (k *pairDistances[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n := s[0], s[1]/2
	x, d := ops.Data[T](in[0]), ops.Data[T](out)
	for st := range b {
		pts := x[st*4*n:][:4*n]
		a, bb := pts[:2*n], pts[2*n:]
		o := d[st*n*n:][:n*n]
		for i := range n {
			for j := range n {
				dx, dy := float64(bb[2*i]-a[2*j]), float64(bb[2*i+1]-a[2*j+1])
				o[i*n+j] = T(math.Sqrt(dx*dx + dy*dy))
			}
		}
	}
	return nil
}

func (k *pairDistances[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}

package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
)

// Inner gives each instance's inner product sum_ij a_bij g_bij of a and g (B, N, M) as one node
// (B,): a bilinear critic's Q(s, A) = <A, G(s)>. It gives what Sum(HadamardProd(a, g), 1, 2)
// gives, bit for bit, with the instances split over the cores and no (B, N, M) product, its
// broadcast gradient or their copies held between the passes.
func Inner(a, g *G.Node) (*G.Node, error) {
	if a != nil && a.Dtype() == tensor.Float32 {
		return ops.Apply(&inner[float32]{}, a, g)
	}
	return ops.Apply(&inner[float64]{}, a, g)
}

// inner is the ops.Kernel of an Inner node.
type inner[T ops.Float] struct{}

func (k *inner[T]) Name() string { return "Inner" }

func (k *inner[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 3 || !in[0].Eq(in[1]) {
		return nil, fmt.Errorf("input shapes %v, want a and g of one shape (B, N, M)", in)
	}
	return tensor.Shape{in[0][0]}, nil
}

func (k *inner[T]) Differentiable(int) bool { return true }

// Forward sums as gorgonia's Sum over axes 1 then 2 does: each column of the rounded products
// down its rows from the first row's, then the columns' sums from zero in order.
func (k *inner[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	a, g, q := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	s := in[0].Shape()
	rows, cols := s[1], s[2]
	size := rows * cols
	kern.BatchBlocks(s[0], kern.ElemCost*size, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			a, g := a[b*size:][:size], g[b*size:][:size]
			var sum T
			for j := range cols {
				col := T(a[j] * g[j])
				for i := cols + j; i < size; i += cols {
					col += T(a[i] * g[i]) // the conversion keeps the product rounded, as gorgonia's
				}
				sum += col
			}
			q[b] = sum
		}
	})
	return nil
}

// Backward passes dq_b g to a and dq_b a to g, the products gorgonia's HadamardProd takes of
// the broadcast gradient.
func (k *inner[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	a, g, dq := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](dOut)
	var da, dg []T
	if dIn[0] != nil {
		da = ops.Data[T](dIn[0])
	}
	if dIn[1] != nil {
		dg = ops.Data[T](dIn[1])
	}
	size := len(a) / len(dq)
	kern.BatchBlocks(len(dq), kern.ElemCost*size, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			d, r := dq[b], b*size
			if da != nil {
				for i, v := range g[r : r+size] {
					da[r+i] = d * v
				}
			}
			if dg != nil {
				for i, v := range a[r : r+size] {
					dg[r+i] = d * v
				}
			}
		}
	})
	return nil
}

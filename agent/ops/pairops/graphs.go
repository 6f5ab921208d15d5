package pairops

import (
	"fmt"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// GraphPairWidth is the number of features GraphPairFeatures gives each node pair.
const GraphPairWidth = 4

// RowMean adds, for adjacency matrices a (B, N, N), a with each row divided by its sum, so
// that (RowMean(a) h)_i is the mean of h over node i's neighbours; rows that sum to zero
// (isolated nodes) stay zero. a is data: no gradient flows back into it.
func RowMean(a *G.Node) (*G.Node, error) {
	if a != nil && a.Dtype() == tensor.Float32 {
		return ops.Apply(&rowMean[float32]{}, a)
	}
	return ops.Apply(&rowMean[float64]{}, a)
}

// rowMean is the ops.Kernel of a RowMean node.
type rowMean[T ops.Float] struct{}

func (k *rowMean[T]) Name() string { return "RowMean" }

func (k *rowMean[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != in[0][2] {
		return nil, fmt.Errorf("input shape %v, want (B, N, N)", in)
	}
	return in[0].Clone(), nil
}

func (k *rowMean[T]) Differentiable(int) bool { return false }

func (k *rowMean[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	n := in[0].Shape()[2]
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	kern.BatchBlocks(len(x)/n, 2*kern.ElemCost*n, func(lo, hi int) { // rows, each alone
		for r := lo * n; r < hi*n; r += n {
			row, dst := x[r:r+n], y[r:r+n]
			var s T
			for _, v := range row {
				s += v
			}
			for j, v := range row {
				if s != 0 {
					dst[j] = v / s
				} else {
					dst[j] = 0
				}
			}
		}
	})
	return nil
}

func (k *rowMean[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // a is data: Differentiable is false, so there is no gradient to write
}

// GraphPairFeatures adds, for graph-matching states x (B, 2N, N) (G1's adjacency rows, then
// G2's), the features of each pair (i, k) of G1's nodes, (B, N, N, GraphPairWidth): the entry
// A1_ik, the degrees d_i and d_k, and the mean degree, all degrees over N-1 (the mean is G1's
// edge density). x is data: no gradient flows back into it.
func GraphPairFeatures(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&graphPairFeatures[float32]{}, x)
	}
	return ops.Apply(&graphPairFeatures[float64]{}, x)
}

// graphPairFeatures is the ops.Kernel of a GraphPairFeatures node.
type graphPairFeatures[T ops.Float] struct{}

func (k *graphPairFeatures[T]) Name() string { return "GraphPairFeatures" }

func (k *graphPairFeatures[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1] != 2*in[0][2] || in[0][2] < 2 {
		return nil, fmt.Errorf("input shape %v, want (B, 2N, N) with N >= 2", in)
	}
	s := in[0]
	return tensor.Shape{s[0], s[2], s[2], GraphPairWidth}, nil
}

func (k *graphPairFeatures[T]) Differentiable(int) bool { return false }

func (k *graphPairFeatures[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n := s[0], s[2]
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	kern.BatchBlocks(b, kern.ElemCost*n*n*GraphPairWidth, func(lo, hi int) { // states, each alone
		graphPairs(y, x, n, lo, hi)
	})
	return nil
}

// graphPairs writes the pair features of states lo..hi of x into y.
func graphPairs[T ops.Float](y, x []T, n, lo, hi int) {
	deg := make([]T, n)
	for bi := lo; bi < hi; bi++ {
		a1 := x[bi*2*n*n:][:n*n] // G1's rows; G2's follow
		var mean T
		for i := range n {
			var d T
			for _, v := range a1[i*n : (i+1)*n] {
				d += v
			}
			deg[i] = d / T(n-1)
			mean += deg[i]
		}
		mean /= T(n)
		dst := y[bi*n*n*GraphPairWidth:][:n*n*GraphPairWidth]
		for i := range n {
			for j := range n {
				f := dst[(i*n+j)*GraphPairWidth:][:GraphPairWidth]
				f[0], f[1], f[2], f[3] = a1[i*n+j], deg[i], deg[j], mean
			}
		}
	}
}

func (k *graphPairFeatures[T]) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // x is data: Differentiable is false, so there is no gradient to write
}

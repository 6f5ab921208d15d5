package pairops

import (
	"fmt"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/backend"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// WithNeighbourMeans adds, for row-mean adjacencies mean (B, N, N) (data: no gradient) and node
// embeddings h (B, N, D), each node's embedding followed by the mean over its neighbours,
// (B, N, 2D): [h, mean h], a message-passing round's input. It is gorgonia's Concat(2, h,
// BatchedMatMul(mean, h)) as one node, with the same numbers both ways, without gorgonia's
// element-by-element copies, and with the graphs split over the cores.
func WithNeighbourMeans(mean, h *G.Node) (*G.Node, error) {
	if h != nil && h.Dtype() == tensor.Float32 {
		return ops.Apply(&withNeighbourMeans[float32]{}, mean, h)
	}
	return ops.Apply(&withNeighbourMeans[float64]{}, mean, h)
}

// withNeighbourMeans is the ops.Kernel of a WithNeighbourMeans node.
type withNeighbourMeans[T ops.Float] struct{}

func (k *withNeighbourMeans[T]) Name() string { return "WithNeighbourMeans" }

func (k *withNeighbourMeans[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 3 || in[1].Dims() != 3 || in[0][1] != in[0][2] ||
		in[0][0] != in[1][0] || in[0][1] != in[1][1] {
		return nil, fmt.Errorf("input shapes %v, want (B, N, N) and (B, N, D)", in)
	}
	return tensor.Shape{in[1][0], in[1][1], 2 * in[1][2]}, nil
}

func (k *withNeighbourMeans[T]) Differentiable(i int) bool { return i == 1 }

func (k *withNeighbourMeans[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[1].Shape()
	b, n, d := s[0], s[1], s[2]
	mean, h, y := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	kern.BatchBlocks(b, 2*n*n*d, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			hg, yg := h[g*n*d:][:n*d], y[g*n*2*d:][:n*2*d]
			for i := range n {
				copy(yg[i*2*d:][:d], hg[i*d:][:d])
			}
			backend.Gemm(blas.NoTrans, blas.NoTrans, n, d, n, 1, mean[g*n*n:][:n*n], n, hg, d, 0, yg[d:], 2*d)
		}
	})
	return nil
}

// Backward writes dh = dY's first half + mean^T (dY's second half): the product rounded, then
// the sum, as gorgonia adds the two paths' gradients.
func (k *withNeighbourMeans[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := in[1].Shape()
	b, n, d := s[0], s[1], s[2]
	mean, dy, dh := ops.Data[T](in[0]), ops.Data[T](dOut), ops.Data[T](dIn[1])
	kern.BatchBlocks(b, 2*n*n*d, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			dyg, dhg := dy[g*n*2*d:][:n*2*d], dh[g*n*d:][:n*d]
			backend.Gemm(blas.Trans, blas.NoTrans, n, d, n, 1, mean[g*n*n:][:n*n], n, dyg[d:], 2*d, 0, dhg, d)
			for i := range n {
				row, top := dhg[i*d:][:d], dyg[i*2*d:][:d]
				for j, v := range top {
					row[j] += v
				}
			}
		}
	})
	return nil
}

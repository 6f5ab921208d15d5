package pairops

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/parallel"
)

// PairOuter adds the matching actor's fused embedding as one node: for x of shape (B, 2N, H)
// holding the embeddings of set A (rows 0..N-1) then set B (rows N..2N-1) of each instance, it
// gives E (B, N, N) with E[b] = EB EA^T, i.e. E[b,i,j] = <x[b,N+i], x[b,j]> — the reference
// code's torch.bmm(eb, ea.transpose(1, 2)). Fusing it avoids slicing x in the graph.
func PairOuter(x *G.Node) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&pairOuter[float32]{}, x)
	}
	return ops.Apply(&pairOuter[float64]{}, x)
}

// pairOuter is the ops.Kernel of a PairOuter node: B small GEMMs each way, the instances of a large
// pass split over the cores (each instance's products are the same whichever goroutine runs
// them).
type pairOuter[T ops.Float] struct{}

func (k *pairOuter[T]) Name() string { return "PairOuter" }

func (k *pairOuter[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 || in[0][1]%2 != 0 {
		return nil, fmt.Errorf("input shape %v, want (B, 2N, H)", in)
	}
	return tensor.Shape{in[0][0], in[0][1] / 2, in[0][1] / 2}, nil
}

func (k *pairOuter[T]) Differentiable(int) bool { return true }

func (k *pairOuter[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	s := in[0].Shape()
	b, n, h := s[0], s[1]/2, s[2]
	x, e := ops.Data[T](in[0]), ops.Data[T](out)
	instanceBlocks(b, 2*n*n*h, func(lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			ea := x[bi*2*n*h:][:n*h]
			eb := x[(bi*2*n+n)*h:][:n*h]
			backend.Gemm(blas.NoTrans, blas.Trans, n, n, h, 1, eb, h, ea, h, 0, e[bi*n*n:][:n*n], n)
		}
	})
	return nil
}

func (k *pairOuter[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	s := in[0].Shape()
	b, n, h := s[0], s[1]/2, s[2]
	x, de, dx := ops.Data[T](in[0]), ops.Data[T](dOut), ops.Data[T](dIn[0])
	instanceBlocks(b, 4*n*n*h, func(lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			ea, dea := x[bi*2*n*h:][:n*h], dx[bi*2*n*h:][:n*h]
			eb, deb := x[(bi*2*n+n)*h:][:n*h], dx[(bi*2*n+n)*h:][:n*h]
			g := de[bi*n*n:][:n*n]
			backend.Gemm(blas.NoTrans, blas.NoTrans, n, h, n, 1, g, n, ea, h, 0, deb, h) // dEB = dE EA
			backend.Gemm(blas.Trans, blas.NoTrans, n, h, n, 1, g, n, eb, h, 0, dea, h)   // dEA = dE^T EB
		}
	})
	return nil
}

// minSplitOuterFlops is the work (floating-point operations) of a PairOuter pass above which
// its instances are split over goroutines: each half then takes at least about 100 µs of one
// core, more than a goroutine takes to start on a busy machine.
const minSplitOuterFlops = 8 << 20

// instanceBlocks runs fn over the instances [0, b), each costing flops operations, split over
// goroutines when the pass is large enough to pay for them.
func instanceBlocks(b, flops int, fn func(lo, hi int)) {
	if b*flops < minSplitOuterFlops {
		fn(0, b)
		return
	}
	parallel.For(b, func(_, lo, hi int) { fn(lo, hi) })
}

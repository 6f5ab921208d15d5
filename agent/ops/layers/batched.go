package layers

import (
	"fmt"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/backend"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ProductOptions are the settings of a BatchedProduct: which factors are transposed, and which
// are data (no gradient computed for them).
type ProductOptions struct {
	TransA, TransB bool
	DataA, DataB   bool
}

// BatchedProduct adds the B products op(a_i) op(b_i) of a (B, ., .) and b (B, ., .), where
// op transposes as o says, as one node: gorgonia's BatchedMatMul with the same per-item
// products (so the same numbers), but with the items split over the cores and without
// gorgonia's per-item tensor views.
func BatchedProduct(a, b *G.Node, o ProductOptions) (*G.Node, error) {
	if a != nil && a.Dtype() == tensor.Float32 {
		return ops.Apply(&batchedProduct[float32]{o: o}, a, b)
	}
	return ops.Apply(&batchedProduct[float64]{o: o}, a, b)
}

// batchedProduct is the ops.Kernel of a BatchedProduct node.
type batchedProduct[T ops.Float] struct{ o ProductOptions }

func (k *batchedProduct[T]) Name() string { return "BatchedProduct" }

// dims returns the batch and op(a)'s m x kk and op(b)'s kk x n, checking that they fit.
func (k *batchedProduct[T]) dims(in []tensor.Shape) (b, m, kk, n int, err error) {
	if len(in) != 2 || in[0].Dims() != 3 || in[1].Dims() != 3 || in[0][0] != in[1][0] {
		return 0, 0, 0, 0, fmt.Errorf("input shapes %v, want (B, ., .) twice", in)
	}
	m, kk = in[0][1], in[0][2]
	if k.o.TransA {
		m, kk = kk, m
	}
	kb, n := in[1][1], in[1][2]
	if k.o.TransB {
		kb, n = n, kb
	}
	if kb != kk {
		return 0, 0, 0, 0, fmt.Errorf("input shapes %v (transposed %v, %v): inner dimensions %d and %d differ", in, k.o.TransA, k.o.TransB, kk, kb)
	}
	return in[0][0], m, kk, n, nil
}

func (k *batchedProduct[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	b, m, _, n, err := k.dims(in)
	if err != nil {
		return nil, err
	}
	return tensor.Shape{b, m, n}, nil
}

func (k *batchedProduct[T]) Differentiable(i int) bool {
	if i == 0 {
		return !k.o.DataA
	}
	return !k.o.DataB
}

// trans is the BLAS flag of a transposed (t) or plain factor.
func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func (k *batchedProduct[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	b, m, kk, n, err := k.dims([]tensor.Shape{in[0].Shape(), in[1].Shape()})
	if err != nil {
		return err
	}
	x, y, c := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	lda, ldb := in[0].Shape()[2], in[1].Shape()[2]
	tA, tB := trans(k.o.TransA), trans(k.o.TransB)
	kern.BatchBlocks(b, 2*m*n*kk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			backend.Gemm(tA, tB, m, n, kk, 1, x[i*m*kk:][:m*kk], lda, y[i*kk*n:][:kk*n], ldb, 0, c[i*m*n:][:m*n], n)
		}
	})
	return nil
}

// Backward writes dA and dB as gorgonia's BatchedMatMul does: for C = op(A) op(B), dA = dC
// op(B)^T (or op(B) dC^T where A is transposed) and dB = op(A)^T dC (or dC^T op(A)).
func (k *batchedProduct[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	b, m, kk, n, err := k.dims([]tensor.Shape{in[0].Shape(), in[1].Shape()})
	if err != nil {
		return err
	}
	x, y, dc := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](dOut)
	var dx, dy []T
	if dIn[0] != nil {
		dx = ops.Data[T](dIn[0])
	}
	if dIn[1] != nil {
		dy = ops.Data[T](dIn[1])
	}
	lda, ldb := in[0].Shape()[2], in[1].Shape()[2]
	tA, tB := trans(k.o.TransA), trans(k.o.TransB)
	grads := 0 // the products per item: one per gradient wanted
	for _, d := range dIn {
		if d != nil {
			grads++
		}
	}
	kern.BatchBlocks(b, 2*m*n*kk*grads, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			a, bb, g := x[i*m*kk:][:m*kk], y[i*kk*n:][:kk*n], dc[i*m*n:][:m*n]
			if dx != nil {
				da := dx[i*m*kk:][:m*kk]
				if k.o.TransA {
					backend.Gemm(tB, blas.Trans, kk, m, n, 1, bb, ldb, g, n, 0, da, lda)
				} else {
					backend.Gemm(blas.NoTrans, trans(!k.o.TransB), m, kk, n, 1, g, n, bb, ldb, 0, da, lda)
				}
			}
			if dy != nil {
				db := dy[i*kk*n:][:kk*n]
				if k.o.TransB {
					backend.Gemm(blas.Trans, tA, n, kk, m, 1, g, n, a, lda, 0, db, ldb)
				} else {
					backend.Gemm(trans(!k.o.TransA), blas.NoTrans, kk, n, m, 1, a, lda, g, n, 0, db, ldb)
				}
			}
		}
	})
	return nil
}

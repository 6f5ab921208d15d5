package seq

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/parallel"
)

// AttentionOptions configures one SelfAttention node.
type AttentionOptions struct {
	// Heads is the number of attention heads; it must divide the width d.
	Heads int
	// NoInputGrad marks x as data: its gradient is not computed.
	NoInputGrad bool
	// Frozen marks the weights as constants of this graph: their gradients are not computed.
	Frozen bool
}

// SelfAttention adds multi-head self-attention over the items of each instance as one node
// (Vaswani et al. 2017; the encoder layer of Kool et al. 2019 without its skip and norm):
//
//	[Q K V] = x Wqkv,  O_h = softmax(Q_h K_h^T / sqrt(d/H)) V_h,  y = [O_1 ... O_H] Wo
//
// for x (B, N, d), Wqkv (d, 3d) holding the query, key and value projections side by side
// (head h reads columns h d/H to (h+1) d/H of each), and Wo (d, d); y is (B, N, d). Instances
// do not see each other, so y does not depend on the batch or its order, and relabelling an
// instance's items relabels their outputs alike. The scores and softmax of every head are kept
// for the backward pass (B H N^2 values); instances are split over the cores.
func SelfAttention(x, wqkv, wo *G.Node, o AttentionOptions) (*G.Node, error) {
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&attnKernel[float32]{o: o}, x, wqkv, wo)
	}
	return ops.Apply(&attnKernel[float64]{o: o}, x, wqkv, wo)
}

// attnKernel is the ops.Kernel of a SelfAttention node. Its buffers are kept between runs.
type attnKernel[T ops.Float] struct {
	o       AttentionOptions
	b, n, d int

	qkv  []T // x Wqkv, (B N, 3d)
	attn []T // the softmax weights, (B, H, N, N)
	cat  []T // the heads' outputs side by side, (B N, d)

	dCat, dQKV []T   // their gradients
	dA         [][]T // per worker, one head's score gradient (N, N)
}

func (k *attnKernel[T]) Name() string { return "SelfAttention" }

func (k *attnKernel[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 3 || in[0].Dims() != 3 {
		return nil, fmt.Errorf("input shapes %v, want x (B, N, d), Wqkv (d, 3d), Wo (d, d)", in)
	}
	d := in[0][2]
	if !in[1].Eq(tensor.Shape{d, 3 * d}) || !in[2].Eq(tensor.Shape{d, d}) {
		return nil, fmt.Errorf("weights %v and %v, want (%d, %d) and (%d, %d)", in[1], in[2], d, 3*d, d, d)
	}
	if k.o.Heads < 1 || d%k.o.Heads != 0 {
		return nil, fmt.Errorf("%d heads do not divide the width %d", k.o.Heads, d)
	}
	return in[0].Clone(), nil
}

func (k *attnKernel[T]) Differentiable(i int) bool {
	if i == 0 {
		return !k.o.NoInputGrad
	}
	return !k.o.Frozen
}

// size reads B, N and d from x and sizes the saved buffers.
func (k *attnKernel[T]) size(x *tensor.Dense) {
	s := x.Shape()
	k.b, k.n, k.d = s[0], s[1], s[2]
	k.qkv = kern.Grow(k.qkv, k.b*k.n*3*k.d)
	k.attn = kern.Grow(k.attn, k.b*k.o.Heads*k.n*k.n)
	k.cat = kern.Grow(k.cat, k.b*k.n*k.d)
}

func (k *attnKernel[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	k.size(in[0])
	b, n, d, heads := k.b, k.n, k.d, k.o.Heads
	dk := d / heads
	scale := T(1 / math.Sqrt(float64(dk)))
	x, wqkv, wo, y := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](in[2]), ops.Data[T](out)
	backend.GemmParallel(blas.NoTrans, blas.NoTrans, b*n, 3*d, d, 1, x, d, wqkv, 3*d, 0, k.qkv, 3*d)
	parallel.For(b, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			qkv, cat := k.qkv[i*n*3*d:], k.cat[i*n*d:]
			for h := range heads {
				a := k.attn[(i*heads+h)*n*n:][:n*n]
				q, kk, v := qkv[h*dk:], qkv[d+h*dk:], qkv[2*d+h*dk:]
				backend.Gemm(blas.NoTrans, blas.Trans, n, n, dk, scale, q, 3*d, kk, 3*d, 0, a, n)
				for r := range n {
					softmaxRow(a[r*n : (r+1)*n])
				}
				backend.Gemm(blas.NoTrans, blas.NoTrans, n, dk, n, 1, a, n, v, 3*d, 0, cat[h*dk:], d)
			}
		}
	})
	backend.GemmParallel(blas.NoTrans, blas.NoTrans, b*n, d, d, 1, k.cat, d, wo, d, 0, y, d)
	return nil
}

// softmaxRow replaces r by softmax(r), shifted by its maximum for range.
func softmaxRow[T ops.Float](r []T) {
	m := r[0]
	for _, v := range r[1:] {
		m = max(m, v)
	}
	var s float64
	for j, v := range r {
		e := math.Exp(float64(v - m))
		r[j] = T(e)
		s += e
	}
	inv := T(1 / s)
	for j := range r {
		r[j] *= inv
	}
}

func (k *attnKernel[T]) Backward(in []*tensor.Dense, _, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	b, n, d, heads := k.b, k.n, k.d, k.o.Heads
	dk := d / heads
	scale := T(1 / math.Sqrt(float64(dk)))
	x, wqkv, wo, dy := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](in[2]), ops.Data[T](dOut)
	rows := b * n
	k.dCat = kern.Grow(k.dCat, rows*d)
	k.dQKV = kern.Grow(k.dQKV, rows*3*d)
	backend.GemmParallel(blas.NoTrans, blas.Trans, rows, d, d, 1, dy, d, wo, d, 0, k.dCat, d)
	if dIn[2] != nil {
		backend.GemmParallel(blas.Trans, blas.NoTrans, d, d, rows, 1, k.cat, d, dy, d, 0, ops.Data[T](dIn[2]), d)
	}
	w := parallel.Workers(b)
	for len(k.dA) < w {
		k.dA = append(k.dA, make([]T, n*n))
	}
	parallel.For(b, func(worker, lo, hi int) {
		dA := k.dA[worker][:n*n]
		for i := lo; i < hi; i++ {
			qkv, dqkv, dcat := k.qkv[i*n*3*d:], k.dQKV[i*n*3*d:], k.dCat[i*n*d:]
			for h := range heads {
				a := k.attn[(i*heads+h)*n*n:][:n*n]
				q, kk, v := qkv[h*dk:], qkv[d+h*dk:], qkv[2*d+h*dk:]
				dq, dkk, dv := dqkv[h*dk:], dqkv[d+h*dk:], dqkv[2*d+h*dk:]
				do := dcat[h*dk:]
				// dA = dO V^T and dV = A^T dO, then the softmax's Jacobian row by row:
				// dS_rj = A_rj (dA_rj - sum_l A_rl dA_rl), times the scale of the scores.
				backend.Gemm(blas.NoTrans, blas.Trans, n, n, dk, 1, do, d, v, 3*d, 0, dA, n)
				backend.Gemm(blas.Trans, blas.NoTrans, n, dk, n, 1, a, n, do, d, 0, dv, 3*d)
				for r := range n {
					ar, gr := a[r*n:(r+1)*n], dA[r*n:(r+1)*n]
					var dot T
					for j := range ar {
						dot += ar[j] * gr[j]
					}
					for j := range ar {
						gr[j] = scale * ar[j] * (gr[j] - dot)
					}
				}
				backend.Gemm(blas.NoTrans, blas.NoTrans, n, dk, n, 1, dA, n, kk, 3*d, 0, dq, 3*d)
				backend.Gemm(blas.Trans, blas.NoTrans, n, dk, n, 1, dA, n, q, 3*d, 0, dkk, 3*d)
			}
		}
	})
	if dIn[1] != nil {
		backend.GemmParallel(blas.Trans, blas.NoTrans, d, 3*d, rows, 1, x, d, k.dQKV, 3*d, 0, ops.Data[T](dIn[1]), 3*d)
	}
	if dIn[0] != nil {
		backend.GemmParallel(blas.NoTrans, blas.Trans, rows, d, 3*d, 1, k.dQKV, 3*d, wqkv, 3*d, 0, ops.Data[T](dIn[0]), d)
	}
	return nil
}

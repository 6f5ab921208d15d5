package layers

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/fastmath"
	"spg-tui/linalg/parallel"
)

// DenseOptions configures one Dense node.
type DenseOptions struct {
	// Act is applied to x w + b.
	Act Activation
	// NoInputGrad marks x as data: its gradient is not computed.
	NoInputGrad bool
	// Frozen marks w and b as constants of this graph (the critic inside the actor's update):
	// their gradients are not computed.
	Frozen bool
}

// Dense adds the fully connected layer y = act(x w + b) as one node. x has shape (..., in) and
// is treated as a matrix of rows of length in; w is (in, out); b is (out) or nil for no bias; y
// has x's shape with the last axis replaced by out. One GEMM forward and at most two backward,
// with bias, activation and their gradients fused in: no broadcast, reshape or extra nodes.
// Large layers are split by rows over the cores.
func Dense(x, w, b *G.Node, o DenseOptions) (*G.Node, error) {
	if !o.Act.valid() {
		return nil, fmt.Errorf("ops: Dense: unknown activation %v", o.Act)
	}
	in := []*G.Node{x, w}
	if b != nil {
		in = append(in, b)
	}
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&denseKernel[float32]{o: o}, in...)
	}
	return ops.Apply(&denseKernel[float64]{o: o}, in...)
}

// denseKernel is the ops.Kernel of a Dense node.
type denseKernel[T ops.Float] struct {
	o       DenseOptions
	g, ones []T // activation gradient and the ones for bias sums, reused between runs
}

func (k *denseKernel[T]) Name() string { return "Dense" }

func (k *denseKernel[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) < 2 || len(in) > 3 || in[0].Dims() < 1 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("input shapes %v, want x (..., in), w (in, out) [, b (out)]", in)
	}
	x, w := in[0], in[1]
	if x[x.Dims()-1] != w[0] {
		return nil, fmt.Errorf("x %v and w %v do not multiply", x, w)
	}
	if len(in) == 3 && (in[2].Dims() != 1 || in[2][0] != w[1]) {
		return nil, fmt.Errorf("bias shape %v, want (%d)", in[2], w[1])
	}
	out := x.Clone()
	out[out.Dims()-1] = w[1]
	return out, nil
}

func (k *denseKernel[T]) Differentiable(i int) bool {
	if i == 0 {
		return !k.o.NoInputGrad
	}
	return !k.o.Frozen
}

// dims returns the rows, input and output widths.
func (k *denseKernel[T]) dims(in []*tensor.Dense) (rows, nIn, nOut int) {
	w := in[1].Shape()
	return in[0].Shape().TotalSize() / w[0], w[0], w[1]
}

func (k *denseKernel[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	rows, nIn, nOut := k.dims(in)
	x, w, y := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out)
	var b []T
	if len(in) == 3 {
		b = ops.Data[T](in[2])
	}
	// Each goroutine computes whole rows in tiles of about L2's size (where the BLAS gives the
	// same bits on any split of the rows: backend.ExactSplits); in each it adds the bias
	// and applies the activation in one pass while the tile is in cache, where fastmath has the
	// kernel and the GEMM's beta = 1 would round its sums the same (backend.AddsOnce).
	// Otherwise the bias is copied in first and the GEMM adds to it.
	yf, fused := any(y).([]float32)
	fused = fused && b != nil && fastmath.HasBiasLeakyRows() && backend.AddsOnce(nIn)
	slope := float32(1) // LeakyReLU with slope 1 is the identity, bit for bit
	if k.o.Act == LeakyReLU {
		slope = LeakySlope
	}
	tile := max(rows, 1) // OpenBLAS may round a product on fewer rows differently
	if backend.ExactSplits {
		tile = max(1, denseTile/(nIn+nOut))
	}
	rowBlocks(rows, nIn+nOut, func(_, lo, hi int) {
		for t0 := lo; t0 < hi; t0 += tile {
			t1 := min(hi, t0+tile)
			yr, xr := y[t0*nOut:t1*nOut], x[t0*nIn:t1*nIn]
			if fused {
				backend.Gemm(blas.NoTrans, blas.NoTrans, t1-t0, nOut, nIn, 1, xr, nIn, w, nOut, 0, yr, nOut)
				fastmath.BiasLeakyRows(yf[t0*nOut:t1*nOut], any(b).([]float32), slope)
				continue
			}
			var beta T
			if b != nil {
				fillRows(yr, b)
				beta = 1
			}
			backend.Gemm(blas.NoTrans, blas.NoTrans, t1-t0, nOut, nIn, 1, xr, nIn, w, nOut, beta, yr, nOut)
			activate(k.o.Act, yr)
		}
	})
	return nil
}

func (k *denseKernel[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	rows, nIn, nOut := k.dims(in)
	x, w, y, dy := ops.Data[T](in[0]), ops.Data[T](in[1]), ops.Data[T](out), ops.Data[T](dOut)
	g := dy
	if k.o.Act != Identity {
		k.g = kern.Grow(k.g, len(dy))
		g = k.g
	}
	var dx []T
	if dIn[0] != nil {
		dx = ops.Data[T](dIn[0])
	}
	if dx != nil || k.o.Act != Identity {
		// The activation's gradient and the input gradient of the same rows, per goroutine.
		rowBlocks(rows, nIn+nOut, func(_, lo, hi int) {
			gr := g[lo*nOut : hi*nOut]
			if k.o.Act != Identity {
				activationGrad(k.o.Act, gr, dy[lo*nOut:hi*nOut], y[lo*nOut:hi*nOut])
			}
			if dx != nil {
				backend.Gemm(blas.NoTrans, blas.Trans, hi-lo, nIn, nOut, 1, gr, nOut, w, nOut, 0, dx[lo*nIn:hi*nIn], nIn)
			}
		})
	}
	if dIn[1] != nil {
		backend.GemmParallel(blas.Trans, blas.NoTrans, nIn, nOut, rows, 1, x, nIn, g, nOut, 0, ops.Data[T](dIn[1]), nOut)
	}
	if len(dIn) == 3 && dIn[2] != nil {
		k.ones = onesOf(k.ones, rows)
		backend.ColSums(rows, nOut, g, nOut, k.ones, ops.Data[T](dIn[2]))
	}
	return nil
}

// denseTile is the number of elements of x and y (rows times nIn + nOut) Dense's forward pass
// takes at a time: 256 KiB of float32, so that the product's rows are still in L2 when the bias
// and activation pass reads them.
const denseTile = 1 << 16

// fillBlock is the most elements fillRows copies at once (16 KiB of float32): its source then
// stays in L1.
const fillBlock = 4096

// fillRows sets every row of y (len(y) a multiple of len(b) > 0) to b. It writes b into the first
// row and then copies the rows already written after them, doubling up to fillBlock: a few long
// copies instead of one per row, which for narrow layers (a row of 1 to 32 floats) cost more in
// calls than in bytes.
func fillRows[T ops.Float](y, b []T) {
	if len(b) == 0 {
		return
	}
	n := copy(y, b)
	step := max(len(b), fillBlock-fillBlock%len(b))
	for n < len(y) {
		n += copy(y[n:], y[:min(n, step)])
	}
}

// minParallelElems is the number of elements (rows times the widths they are read and written
// at) above which row-wise loops are split over goroutines; below it the goroutine start-up
// costs more than it saves.
const minParallelElems = 1 << 15

// rowBlocks runs fn over the rows [0, rows), split over goroutines when rows*width is at least
// minParallelElems.
func rowBlocks(rows, width int, fn func(worker, lo, hi int)) {
	if rows*width < minParallelElems {
		fn(0, 0, rows)
		return
	}
	parallel.For(rows, fn)
}

// onesOf returns s with length n filled with ones, reallocated and filled only when the length
// changed.
func onesOf[T ops.Float](s []T, n int) []T {
	if len(s) == n {
		return s
	}
	s = make([]T, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

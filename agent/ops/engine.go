package ops

import (
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/kern"
)

// Engine returns the tensor engine for the learner's machines (G.WithEngine) and the fused ops'
// buffers: gorgonia's own, but with the elementwise sum and product of two tensors and the
// concatenation split over the cores. Gorgonia sums a node's gradients when several nodes read it
// (tensor.Add on the first operand's engine) and runs HadamardProd and Concat the same way, each
// on one core; element by element the results are the same bits whoever computes them.
func Engine() tensor.Engine { return engine{} }

// engine is gorgonia's StandardEngine with Add, Mul and Concat of contiguous float tensors split
// over the cores; everything else, and every case those do not take, is the StandardEngine's.
type engine struct{ G.StandardEngine }

// Add is a + b.
func (e engine) Add(a, b tensor.Tensor, opts ...tensor.FuncOpt) (tensor.Tensor, error) {
	if r, ok := e.binary(a, b, opts, addF32, addF64); ok {
		return r, nil
	}
	return e.StandardEngine.Add(a, b, opts...)
}

// Mul is a * b, element by element.
func (e engine) Mul(a, b tensor.Tensor, opts ...tensor.FuncOpt) (tensor.Tensor, error) {
	if r, ok := e.binary(a, b, opts, mulF32, mulF64); ok {
		return r, nil
	}
	return e.StandardEngine.Mul(a, b, opts...)
}

func addF32(d, x, y []float32) {
	for i := range d {
		d[i] = x[i] + y[i]
	}
}

func addF64(d, x, y []float64) {
	for i := range d {
		d[i] = x[i] + y[i]
	}
}

func mulF32(d, x, y []float32) {
	for i := range d {
		d[i] = x[i] * y[i]
	}
}

func mulF64(d, x, y []float64) {
	for i := range d {
		d[i] = x[i] * y[i]
	}
}

// plain reports whether t is a *tensor.Dense of float32 or float64 holding its own row-major
// data: no view, no mask.
func plain(t tensor.Tensor) (*tensor.Dense, bool) {
	d, ok := t.(*tensor.Dense)
	if !ok || d.IsMaterializable() || d.IsMasked() || !d.IsNativelyAccessible() || d.DataOrder().IsColMajor() {
		return nil, false
	}
	return d, d.Dtype() == tensor.Float32 || d.Dtype() == tensor.Float64
}

// binary runs f32 or f64 over a and b of the same shape and dtype into the destination the
// options ask for (a reused tensor of that shape, a itself when unsafe, or a new tensor), split
// over the cores. ok is false for every other case (an increment, broadcasting, views, other
// dtypes), which the caller leaves to gorgonia.
func (e engine) binary(a, b tensor.Tensor, opts []tensor.FuncOpt, f32 func(d, x, y []float32), f64 func(d, x, y []float64)) (tensor.Tensor, bool) {
	x, okA := plain(a)
	y, okB := plain(b)
	if !okA || !okB || x.Dtype() != y.Dtype() || !x.Shape().Eq(y.Shape()) || x.Shape().IsScalar() {
		return nil, false
	}
	fo := tensor.ParseFuncOpts(opts...)
	reuse, incr := fo.IncrReuse()
	var dst *tensor.Dense
	switch {
	case incr || fo.As().Type != nil:
		return nil, false
	case reuse != nil:
		r, ok := plain(reuse)
		if !ok || r.Dtype() != x.Dtype() || !r.Shape().Eq(x.Shape()) {
			return nil, false
		}
		dst = r
	case !fo.Safe():
		dst = x
	default:
		dst = tensor.New(tensor.WithShape(x.Shape().Clone()...), tensor.Of(x.Dtype()), tensor.WithEngine(e))
	}
	n := x.Len()
	if x.Dtype() == tensor.Float32 {
		d, xs, ys := dst.Float32s(), x.Float32s(), y.Float32s()
		kern.BatchBlocks(n, kern.ElemCost, func(lo, hi int) { f32(d[lo:hi], xs[lo:hi], ys[lo:hi]) })
	} else {
		d, xs, ys := dst.Float64s(), x.Float64s(), y.Float64s()
		kern.BatchBlocks(n, kern.ElemCost, func(lo, hi int) { f64(d[lo:hi], xs[lo:hi], ys[lo:hi]) })
	}
	return dst, true
}

// Concat joins t and others along axis: the blocks of each tensor copied in turn, split over
// the outer indices.
func (e engine) Concat(t tensor.Tensor, axis int, others ...tensor.Tensor) (tensor.Tensor, error) {
	if r, ok := e.concat(t, axis, others); ok {
		return r, nil
	}
	return e.StandardEngine.Concat(t, axis, others...)
}

// concat is Concat for plain tensors of one float dtype whose shapes differ only along axis;
// ok is false otherwise.
func (e engine) concat(t tensor.Tensor, axis int, others []tensor.Tensor) (tensor.Tensor, bool) {
	all := make([]*tensor.Dense, 0, len(others)+1)
	for _, o := range append([]tensor.Tensor{t}, others...) {
		d, ok := plain(o)
		if !ok {
			return nil, false
		}
		all = append(all, d)
	}
	s0 := all[0].Shape()
	if axis < 0 || axis >= s0.Dims() {
		return nil, false
	}
	out := s0.Clone()
	inner := make([]int, len(all)) // each tensor's block: its elements per outer index
	for i, d := range all {
		s := d.Shape()
		if d.Dtype() != all[0].Dtype() || s.Dims() != s0.Dims() {
			return nil, false
		}
		for k := range s.Dims() {
			if k != axis && s[k] != s0[k] {
				return nil, false
			}
		}
		if i > 0 {
			out[axis] += s[axis]
		}
		inner[i] = s[axis:].TotalSize()
	}
	outer := s0[:axis].TotalSize()
	r := tensor.New(tensor.WithShape(out...), tensor.Of(all[0].Dtype()), tensor.WithEngine(e))
	if r.Dtype() == tensor.Float32 {
		concatBlocks(r.Float32s(), all, inner, outer, (*tensor.Dense).Float32s)
	} else {
		concatBlocks(r.Float64s(), all, inner, outer, (*tensor.Dense).Float64s)
	}
	return r, true
}

// concatBlocks writes, for each outer index, the blocks of all in turn into y.
func concatBlocks[T Float](y []T, all []*tensor.Dense, inner []int, outer int, data func(*tensor.Dense) []T) {
	width := 0
	for _, w := range inner {
		width += w
	}
	kern.BatchBlocks(outer, kern.ElemCost*width, func(lo, hi int) {
		for o := lo; o < hi; o++ {
			row := y[o*width:][:width]
			for i, d := range all {
				row = row[copy(row, data(d)[o*inner[i]:][:inner[i]]):]
			}
		}
	})
}

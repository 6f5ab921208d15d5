package seq

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
	"spg-tui/agent/ops/internal/kern"
	"spg-tui/linalg/gru"
)

// GRUWeights are one direction's GRU parameters in PyTorch's layout (see package linalg/gru):
// Wih (3H, I), Whh (3H, H), Bih and Bhh (3H), gate order r, z, n.
type GRUWeights struct{ Wih, Whh, Bih, Bhh *G.Node }

// GRUOptions configures one GRU or BiGRU node.
type GRUOptions struct {
	// NoInputGrad marks x as data: its gradient is not wanted.
	NoInputGrad bool
	// Frozen marks the weights as constants of this graph (the critic inside the actor's
	// update): their gradients are neither wanted nor computed.
	Frozen bool
}

// GRU adds a GRU over the whole sequence x (B, T, I) from a zero initial state as one node. Its
// output (B, T, H) holds the state after each step, as PyTorch's nn.GRU(batch_first=True).
func GRU(x *G.Node, w GRUWeights, o GRUOptions) (*G.Node, error) {
	return applyGRU(x, []GRUWeights{w}, o)
}

// BiGRU adds a bidirectional GRU as one node: fwd runs over t = 0..T-1 and rev over
// t = T-1..0, both from zero states; the output (B, T, 2H) holds at each t the forward state
// then the reverse state, as PyTorch's nn.GRU(bidirectional=True, batch_first=True).
func BiGRU(x *G.Node, fwd, rev GRUWeights, o GRUOptions) (*G.Node, error) {
	return applyGRU(x, []GRUWeights{fwd, rev}, o)
}

// applyGRU applies the kernel for one or two directions.
func applyGRU(x *G.Node, ws []GRUWeights, o GRUOptions) (*G.Node, error) {
	in := []*G.Node{x}
	for _, w := range ws {
		in = append(in, w.Wih, w.Whh, w.Bih, w.Bhh)
	}
	if x != nil && x.Dtype() == tensor.Float32 {
		return ops.Apply(&gruKernel[float32]{dirs: len(ws), o: o}, in...)
	}
	return ops.Apply(&gruKernel[float64]{dirs: len(ws), o: o}, in...)
}

// gruKernel is the ops.Kernel of a GRU (dirs 1) or BiGRU (dirs 2) node. Inputs are x, then Wih,
// Whh, Bih, Bhh per direction.
type gruKernel[T ops.Float] struct {
	dirs int
	o    GRUOptions

	d     gru.Dims
	saved [2][]T // per direction, from Forward for Backward
	work  []T
	// Bidirectional staging: each direction's output, then output gradient; the second
	// direction's input gradient.
	dirOut  [2][]T
	dxOther []T
}

func (k *gruKernel[T]) Name() string {
	if k.dirs == 2 {
		return "BiGRU"
	}
	return "GRU"
}

func (k *gruKernel[T]) OutShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1+4*k.dirs || in[0].Dims() != 3 {
		return nil, fmt.Errorf("input shapes %v, want x (B, T, I) and 4 weights per direction", in)
	}
	i := in[0][2]
	h := in[2][1]
	want := []tensor.Shape{{3 * h, i}, {3 * h, h}, {3 * h}, {3 * h}}
	for dir := range k.dirs {
		for j, w := range want {
			if !in[1+4*dir+j].Eq(w) {
				return nil, fmt.Errorf("direction %d weight %d has shape %v, want %v", dir, j, in[1+4*dir+j], w)
			}
		}
	}
	return tensor.Shape{in[0][0], in[0][1], k.dirs * h}, nil
}

func (k *gruKernel[T]) Differentiable(i int) bool {
	if i == 0 {
		return !k.o.NoInputGrad
	}
	return !k.o.Frozen
}

// setup sizes the buffers for the input shapes (only on the first run: graphs are static).
func (k *gruKernel[T]) setup(in []*tensor.Dense) {
	s := in[0].Shape()
	k.d = gru.Dims{B: s[0], T: s[1], I: s[2], H: in[2].Shape()[1]}
	n := k.d.B * k.d.T * k.d.H
	k.work = kern.Grow(k.work, gru.WorkLen(k.d))
	for dir := range k.dirs {
		k.saved[dir] = kern.Grow(k.saved[dir], gru.SavedLen(k.d))
		if k.dirs == 2 {
			k.dirOut[dir] = kern.Grow(k.dirOut[dir], n)
		}
	}
}

// weights returns direction dir's parameters.
func weights[T ops.Float](in []*tensor.Dense, dir int) (wih, whh, bih, bhh []T) {
	w := in[1+4*dir:]
	return ops.Data[T](w[0]), ops.Data[T](w[1]), ops.Data[T](w[2]), ops.Data[T](w[3])
}

func (k *gruKernel[T]) Forward(in []*tensor.Dense, out *tensor.Dense) error {
	k.setup(in)
	x, y := ops.Data[T](in[0]), ops.Data[T](out)
	for dir := range k.dirs {
		o := y
		if k.dirs == 2 {
			o = k.dirOut[dir]
		}
		wih, whh, bih, bhh := weights[T](in, dir)
		gru.Forward(k.d, o, x, nil, wih, whh, bih, bhh, k.saved[dir], k.work, dir == 1)
	}
	if k.dirs == 2 {
		h := k.d.H
		for r := range k.d.B * k.d.T {
			copy(y[2*r*h:][:h], k.dirOut[0][r*h:][:h])
			copy(y[(2*r+1)*h:][:h], k.dirOut[1][r*h:][:h])
		}
	}
	return nil
}

func (k *gruKernel[T]) Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error {
	d, h := k.d, k.d.H
	x, dy := ops.Data[T](in[0]), ops.Data[T](dOut)
	if k.dirs == 2 {
		// Split the gradient by direction into the (now free) forward staging buffers.
		for r := range d.B * d.T {
			copy(k.dirOut[0][r*h:][:h], dy[2*r*h:][:h])
			copy(k.dirOut[1][r*h:][:h], dy[(2*r+1)*h:][:h])
		}
	}
	nx := d.B * d.T * d.I
	var dx []T
	if dIn[0] != nil {
		dx = ops.Data[T](dIn[0])
	}
	for dir := range k.dirs {
		dout := dy
		if k.dirs == 2 {
			dout = k.dirOut[dir]
		}
		dxDir := dx // nil when x's gradient is not wanted: the kernel skips it
		if dx != nil && dir == 1 {
			k.dxOther = kern.Grow(k.dxOther, nx)
			dxDir = k.dxOther
		}
		var dw [4][]T // nil for frozen weights: the kernel skips their GEMMs
		for j := range dw {
			if t := dIn[1+4*dir+j]; t != nil {
				dw[j] = ops.Data[T](t)
			}
		}
		wih, whh, _, _ := weights[T](in, dir)
		gru.Backward(d, dxDir, nil, dw[0], dw[1], dw[2], dw[3], dout, x, wih, whh, k.saved[dir], k.work, dir == 1)
	}
	if k.dirs == 2 && dx != nil {
		for i, v := range k.dxOther[:len(dx)] {
			dx[i] += v
		}
	}
	return nil
}

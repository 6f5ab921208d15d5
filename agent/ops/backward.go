package ops

import (
	"fmt"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// backwardOp runs a kernel's Backward. Its node reads the forward node's inputs, its output (so
// gorgonia keeps them unmodified until the backward pass) and the output's gradient. Its value is
// the gradient of input first; pickOp nodes hand out the gradients of the other inputs.
type backwardOp struct {
	ident
	f     *fusedOp
	first int
	types []hm.Type // of the children, then of the result

	stages        []stage // of the inputs
	outSt, dOutSt stage
	args          []*tensor.Dense
	grads         []owned // gradient buffers, per differentiable input
	dIn           []*tensor.Dense
}

// newBackwardOp returns the backward op of f's node output, whose gradient is grad.
func newBackwardOp(f *fusedOp, first int, output, grad *G.Node) *backwardOp {
	n := len(f.inTypes)
	types := append(append(make([]hm.Type, 0, n+3), f.inTypes...), output.Type(), grad.Type(), f.inTypes[first])
	return &backwardOp{
		ident:  newIdent(f.name + ".backward"),
		f:      f,
		first:  first,
		types:  types,
		stages: make([]stage, n),
		args:   make([]*tensor.Dense, n),
		grads:  make([]owned, n),
		dIn:    make([]*tensor.Dense, n),
	}
}

// Arity is the forward op's inputs plus its output and the output's gradient.
func (op *backwardOp) Arity() int { return len(op.types) - 1 }

// Type is the concrete signature, built anew on every call (see fusedOp.Type).
func (op *backwardOp) Type() hm.Type {
	return fnType(op.types[:len(op.types)-1], op.types[len(op.types)-1])
}

// InferShape is the shape of input first.
func (op *backwardOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.f.inShapes[op.first].Clone(), nil
}

// ReturnsPtr is true: the gradient is a buffer the op keeps and reuses.
func (op *backwardOp) ReturnsPtr() bool { return true }

// CallsExtern is false: the kernel has finished when Do returns.
func (op *backwardOp) CallsExtern() bool { return false }

// OverwritesInput is -1: inputs are read only.
func (op *backwardOp) OverwritesInput() int { return -1 }

// DiffWRT is all false: second derivatives are not supported.
func (op *backwardOp) DiffWRT(n int) []bool { return make([]bool, n) }

// SymDiff fails: second derivatives are not supported.
func (op *backwardOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v: second derivatives are not supported", op)
}

// Do runs the kernel's Backward, filling the gradient buffers of all differentiable inputs.
func (op *backwardOp) Do(vals ...G.Value) (_ G.Value, err error) {
	defer recoverKernel(op, &err)
	f := op.f
	n := len(op.args)
	if len(vals) != n+2 {
		return nil, fmt.Errorf("%v: got %d inputs, want %d", op, len(vals), n+2)
	}
	defer op.release()
	for i := range n {
		d, err := op.stages[i].dense(vals[i], f.inShapes[i], f.dt)
		if err != nil {
			return nil, fmt.Errorf("%v: input %d: %w", op, i, err)
		}
		op.args[i] = d
		if f.diff[i] {
			op.dIn[i] = op.grads[i].get(f.inShapes[i], f.dt)
		}
	}
	out, err := op.outSt.dense(vals[n], f.outShape, f.dt)
	if err != nil {
		return nil, fmt.Errorf("%v: forward output: %w", op, err)
	}
	dOut, err := op.dOutSt.dense(vals[n+1], f.outShape, f.dt)
	if err != nil {
		return nil, fmt.Errorf("%v: output gradient: %w", op, err)
	}
	if err := f.k.Backward(op.args, out, dOut, op.dIn); err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	return op.dIn[op.first], nil
}

// release drops the references to graph values taken by Do.
func (op *backwardOp) release() {
	clear(op.args)
	clear(op.dIn)
}

// pickOp hands out the gradient of input i computed by its backward node, which is its only
// child: reading it orders the pick after the backward pass of the same run.
type pickOp struct {
	ident
	b *backwardOp
	i int
}

// Arity is 1: the backward node.
func (op *pickOp) Arity() int { return 1 }

// Type maps the backward node's type to input i's type.
func (op *pickOp) Type() hm.Type {
	t := op.b.types
	return hm.NewFnType(t[len(t)-1], op.b.f.inTypes[op.i])
}

// InferShape is the shape of input i.
func (op *pickOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.b.f.inShapes[op.i].Clone(), nil
}

// ReturnsPtr is true: the gradient is a buffer the backward op keeps and reuses.
func (op *pickOp) ReturnsPtr() bool { return true }

// CallsExtern is false.
func (op *pickOp) CallsExtern() bool { return false }

// OverwritesInput is -1.
func (op *pickOp) OverwritesInput() int { return -1 }

// DiffWRT is false: second derivatives are not supported.
func (op *pickOp) DiffWRT(int) []bool { return []bool{false} }

// SymDiff fails: second derivatives are not supported.
func (op *pickOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return nil, fmt.Errorf("%v: second derivatives are not supported", op)
}

// Do returns the gradient buffer the backward pass of this run filled.
func (op *pickOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("%v: got %d inputs, want 1", op, len(vals))
	}
	return op.b.grads[op.i].t, nil
}

package ops

import (
	"fmt"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// fusedOp is the forward node of an applied Kernel.
type fusedOp struct {
	ident
	k        Kernel
	dt       tensor.Dtype
	inShapes []tensor.Shape
	inTypes  []hm.Type
	outShape tensor.Shape
	outType  G.TensorType
	diff     []bool

	stages []stage
	args   []*tensor.Dense
	out    owned
}

// Arity is the number of inputs.
func (op *fusedOp) Arity() int { return len(op.inTypes) }

// Type is the concrete signature of this application. gorgonia returns the function type to a
// pool after inference, so it is built anew on every call.
func (op *fusedOp) Type() hm.Type { return fnType(op.inTypes, op.outType) }

// InferShape returns the output shape computed by Apply.
func (op *fusedOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.outShape.Clone(), nil }

// ReturnsPtr is true: the output is a buffer the op keeps and reuses.
func (op *fusedOp) ReturnsPtr() bool { return true }

// CallsExtern is false: the kernel has finished when Do returns.
func (op *fusedOp) CallsExtern() bool { return false }

// OverwritesInput is -1: inputs are read only.
func (op *fusedOp) OverwritesInput() int { return -1 }

// DiffWRT reports the kernel's Differentiable for each input.
func (op *fusedOp) DiffWRT(int) []bool { return append([]bool(nil), op.diff...) }

// Do runs the kernel's forward pass into the op's output buffer.
func (op *fusedOp) Do(vals ...G.Value) (_ G.Value, err error) {
	defer recoverKernel(op, &err)
	if len(vals) != len(op.args) {
		return nil, fmt.Errorf("%v: got %d inputs, want %d", op, len(vals), len(op.args))
	}
	defer clear(op.args) // hold no graph values between runs
	for i, v := range vals {
		d, err := op.stages[i].dense(v, op.inShapes[i], op.dt)
		if err != nil {
			return nil, fmt.Errorf("%v: input %d: %w", op, i, err)
		}
		op.args[i] = d
	}
	out := op.out.get(op.outShape, op.dt)
	if err := op.k.Forward(op.args, out); err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	return out, nil
}

// SymDiff returns the gradient nodes of the inputs: one backward node that runs the kernel's
// Backward and is itself the gradient of the first differentiable input, and for each further
// differentiable input a node that picks its gradient from that same backward pass. Entries of
// inputs that are not differentiable are nil.
func (op *fusedOp) SymDiff(inputs G.Nodes, output, grad *G.Node) (G.Nodes, error) {
	grads := make(G.Nodes, len(inputs))
	first := -1
	for i, d := range op.diff {
		if d {
			first = i
			break
		}
	}
	if first < 0 {
		return grads, nil
	}
	if k, ok := op.k.(BackwardAware); ok {
		k.EnableBackward()
	}
	b := newBackwardOp(op, first, output, grad)
	children := make(G.Nodes, 0, len(inputs)+2)
	children = append(append(children, inputs...), output, grad)
	bn, err := G.ApplyOpWithName(b, b.name, children...)
	if err != nil {
		return nil, fmt.Errorf("%v: backward: %w", op, err)
	}
	grads[first] = bn
	for i := first + 1; i < len(inputs); i++ {
		if !op.diff[i] {
			continue
		}
		p := &pickOp{ident: newIdent(fmt.Sprintf("%s.grad%d", b.name, i)), b: b, i: i}
		if grads[i], err = G.ApplyOpWithName(p, p.name, bn); err != nil {
			return nil, fmt.Errorf("%v: gradient of input %d: %w", op, i, err)
		}
	}
	return grads, nil
}

// fnType builds the function type args... → ret.
func fnType(args []hm.Type, ret hm.Type) *hm.FunctionType {
	ts := make([]hm.Type, 0, len(args)+1)
	return hm.NewFnType(append(append(ts, args...), ret)...)
}

// recoverKernel turns a panic in a kernel into the op's error. TapeMachine.RunAll runs the ops on
// a goroutine of its own, where a panic would end the program before any caller could recover.
func recoverKernel(op fmt.Stringer, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%v: panic: %v", op, r)
	}
}

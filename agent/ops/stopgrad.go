package ops

import (
	"fmt"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// StopGradient returns a node with x's value through which no gradient flows: G.Grad treats it
// as a constant. Use it for targets, e.g. the critic penalty MSE(StopGradient(Qp), Qm) trains
// only through Qm. x must be a float32 or float64 tensor.
func StopGradient(x *G.Node) (*G.Node, error) {
	dt, err := floatDtype(x)
	if err != nil {
		return nil, fmt.Errorf("ops: StopGradient: %w", err)
	}
	op := &stopGradOp{ident: newIdent("StopGradient"), dt: dt, shape: x.Shape(), t: x.Type()}
	return G.ApplyOpWithName(op, op.name, x)
}

// stopGradOp is the identity with no derivative. It copies its input rather than returning it,
// because gorgonia lets a consumer overwrite its input in place once the input's last reader has
// run, and an alias would let such a consumer corrupt x while x is still needed.
type stopGradOp struct {
	ident
	dt    tensor.Dtype
	shape tensor.Shape
	t     hm.Type
	st    stage
	out   owned
}

// Arity is 1.
func (op *stopGradOp) Arity() int { return 1 }

// Type is x's type to x's type.
func (op *stopGradOp) Type() hm.Type { return hm.NewFnType(op.t, op.t) }

// InferShape is x's shape.
func (op *stopGradOp) InferShape(...G.DimSizer) (tensor.Shape, error) { return op.shape.Clone(), nil }

// ReturnsPtr is true: the copy lives in a buffer the op keeps and reuses.
func (op *stopGradOp) ReturnsPtr() bool { return true }

// CallsExtern is false.
func (op *stopGradOp) CallsExtern() bool { return false }

// OverwritesInput is -1.
func (op *stopGradOp) OverwritesInput() int { return -1 }

// DiffWRT is false, which is all it takes for G.Grad to stop here.
func (op *stopGradOp) DiffWRT(int) []bool { return []bool{false} }

// SymDiff returns no gradient for x. gorgonia does not call it (the node never lies on a
// differentiated path) but indexes its result, so it has one nil entry.
func (op *stopGradOp) SymDiff(G.Nodes, *G.Node, *G.Node) (G.Nodes, error) {
	return make(G.Nodes, 1), nil
}

// Do copies x into the op's buffer.
func (op *stopGradOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("%v: got %d inputs, want 1", op, len(vals))
	}
	x, err := op.st.dense(vals[0], op.shape, op.dt)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	out := op.out.get(op.shape, op.dt)
	if op.dt == tensor.Float32 {
		copy(out.Float32s(), x.Float32s())
	} else {
		copy(out.Float64s(), x.Float64s())
	}
	return out, nil
}

package ops

import (
	"fmt"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/assign"
)

// RoundStraightThrough returns the hard permutations P = Hungarian(M) of a batch of soft ones
// m (b x n x n, float32 or float64): P[k][i][j] = 1 where assign.RoundBatch (with byLog,
// assign.RoundBatchLog: the policy's rounding by log M) maps row i of M[k] to column j, else 0.
// Its backward pass is the identity, the straight-through estimator: the gradient that reaches
// P passes unchanged to M, so an actor can ascend a critic trained on hard permutations at the
// permutation it would execute.
func RoundStraightThrough(m *G.Node, byLog bool) (*G.Node, error) {
	dt, err := floatDtype(m)
	if err != nil {
		return nil, fmt.Errorf("ops: RoundStraightThrough: %w", err)
	}
	s := m.Shape()
	if len(s) != 3 || s[1] != s[2] || s[0] < 1 || s[1] < 1 {
		return nil, fmt.Errorf("ops: RoundStraightThrough: M has shape %v, want (b, n, n)", s)
	}
	op := &straightOp{ident: newIdent("RoundStraightThrough"), dt: dt, shape: s.Clone(), t: m.Type(), byLog: byLog}
	return G.ApplyOpWithName(op, op.name, m)
}

// straightOp rounds in the forward pass and is the identity in the backward pass.
type straightOp struct {
	ident
	dt    tensor.Dtype
	shape tensor.Shape
	t     hm.Type
	byLog bool
	st    stage
	out   owned
	perms []int
}

// Arity is 1.
func (op *straightOp) Arity() int { return 1 }

// Type is M's type to M's type.
func (op *straightOp) Type() hm.Type { return hm.NewFnType(op.t, op.t) }

// InferShape is M's shape.
func (op *straightOp) InferShape(...G.DimSizer) (tensor.Shape, error) {
	return op.shape.Clone(), nil
}

// ReturnsPtr is true: P lives in a buffer the op keeps and reuses.
func (op *straightOp) ReturnsPtr() bool { return true }

// CallsExtern is false.
func (op *straightOp) CallsExtern() bool { return false }

// OverwritesInput is -1: M is still needed by the Sinkhorn layer's backward pass.
func (op *straightOp) OverwritesInput() int { return -1 }

// DiffWRT is true: the gradient flows to M.
func (op *straightOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff returns the incoming gradient as M's: dL/dM = dL/dP.
func (op *straightOp) SymDiff(_ G.Nodes, _, grad *G.Node) (G.Nodes, error) {
	return G.Nodes{grad}, nil
}

// Do rounds every matrix of the batch, in parallel over the batch.
func (op *straightOp) Do(vals ...G.Value) (G.Value, error) {
	if len(vals) != 1 {
		return nil, fmt.Errorf("%v: got %d inputs, want 1", op, len(vals))
	}
	m, err := op.st.dense(vals[0], op.shape, op.dt)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	b, n := op.shape[0], op.shape[1]
	if op.perms == nil {
		op.perms = make([]int, b*n)
	}
	out := op.out.get(op.shape, op.dt)
	if op.dt == tensor.Float32 {
		err = roundOneHot(m.Float32s(), out.Float32s(), b, n, op.perms, op.byLog)
	} else {
		err = roundOneHot(m.Float64s(), out.Float64s(), b, n, op.perms, op.byLog)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", op, err)
	}
	return out, nil
}

// roundOneHot writes the one-hot permutation matrices of m's rounding (by log m with byLog)
// into p.
func roundOneHot[T float32 | float64](m, p []T, b, n int, perms []int, byLog bool) error {
	if err := assign.RoundBatchBy(m, b, n, perms, byLog); err != nil {
		return err
	}
	clear(p)
	for k := range b {
		for i, j := range perms[k*n : (k+1)*n] {
			p[(k*n+i)*n+j] = 1
		}
	}
	return nil
}

package ops

import (
	"errors"
	"fmt"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Apply adds k to the graph of inputs as one node and returns it. The node's symbolic derivative
// (built by G.Grad) runs k.Backward once per run. All inputs must be float32 or float64 tensors
// (not scalars) of one dtype, with known shapes. k belongs to this application from now on.
func Apply(k Kernel, inputs ...*G.Node) (*G.Node, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("ops: %s: no inputs", k.Name())
	}
	dt, err := floatDtype(inputs[0])
	if err != nil {
		return nil, fmt.Errorf("ops: %s: input 0: %w", k.Name(), err)
	}
	shapes := make([]tensor.Shape, len(inputs))
	types := make([]hm.Type, len(inputs))
	diff := make([]bool, len(inputs))
	for i, n := range inputs {
		if d, err := floatDtype(n); err != nil {
			return nil, fmt.Errorf("ops: %s: input %d: %w", k.Name(), i, err)
		} else if d != dt {
			return nil, fmt.Errorf("ops: %s: input %d is %v, input 0 is %v", k.Name(), i, d, dt)
		}
		shapes[i] = n.Shape()
		types[i] = n.Type()
		diff[i] = k.Differentiable(i)
	}
	out, err := k.OutShape(shapes)
	if err != nil {
		return nil, fmt.Errorf("ops: %s: %w", k.Name(), err)
	}
	if out.Dims() == 0 || out.TotalSize() <= 0 {
		return nil, fmt.Errorf("ops: %s: output shape %v: want at least one axis and element", k.Name(), out)
	}
	op := &fusedOp{
		ident:    newIdent(k.Name()),
		k:        k,
		dt:       dt,
		inShapes: shapes,
		inTypes:  types,
		outShape: out.Clone(),
		outType:  G.TensorType{Dims: out.Dims(), Of: dt},
		diff:     diff,
		stages:   make([]stage, len(inputs)),
		args:     make([]*tensor.Dense, len(inputs)),
	}
	return G.ApplyOpWithName(op, op.name, inputs...)
}

// floatDtype returns n's dtype if n is a float32 or float64 tensor with a known shape.
func floatDtype(n *G.Node) (tensor.Dtype, error) {
	if n == nil {
		return tensor.Dtype{}, errors.New("nil node")
	}
	if n.IsScalar() {
		return tensor.Dtype{}, fmt.Errorf("%v is a scalar, want a tensor", n)
	}
	dt := n.Dtype()
	if dt != tensor.Float32 && dt != tensor.Float64 {
		return tensor.Dtype{}, fmt.Errorf("%v has dtype %v, want float32 or float64", n, dt)
	}
	if n.Shape().TotalSize() <= 0 {
		return tensor.Dtype{}, fmt.Errorf("%v has no known shape", n)
	}
	return dt, nil
}

package ops

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// owned is a tensor that an op returns as its value run after run, so that a run allocates
// nothing. Once returned it belongs to the graph until the machine is reset, and downstream ops
// may reshape it in place (gorgonia's unsafe Reshape does), so get restores its shape first.
type owned struct {
	t *tensor.Dense
}

// get returns the buffer with shape s and dtype dt, allocating it on first use (graphs are
// static, so only then). Its engine is Engine's, so that gorgonia's sums of these gradients and
// outputs run over the cores.
func (o *owned) get(s tensor.Shape, dt tensor.Dtype) *tensor.Dense {
	switch {
	case o.t == nil || o.t.Dtype() != dt || o.t.Shape().TotalSize() != s.TotalSize():
		o.t = tensor.New(tensor.WithShape(s.Clone()...), tensor.Of(dt), tensor.WithEngine(engine{}))
	case o.t.IsMaterializable() || !o.t.Shape().Eq(s):
		// A fresh header over the same memory: cheaper and safer than undoing whatever was
		// done to the old one, which a node of the last run may still show.
		var backing any = o.t.Float64s()
		if dt == tensor.Float32 {
			backing = o.t.Float32s()
		}
		o.t = tensor.New(tensor.WithShape(s.Clone()...), tensor.WithBacking(backing), tensor.WithEngine(engine{}))
	}
	return o.t
}

// stage hands a graph value to a kernel as a contiguous row-major tensor of the declared shape.
type stage struct {
	scratch owned
}

// dense returns v itself when it already is such a tensor (the usual case), else a copy of it in
// the stage's scratch buffer: a view or a tensor whose shape differs from s but whose size is
// the same (gradients sometimes arrive as (n,) for an (n,1) node).
func (st *stage) dense(v G.Value, s tensor.Shape, dt tensor.Dtype) (*tensor.Dense, error) {
	d, ok := v.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("got a %T, want a *tensor.Dense", v)
	}
	if d.Dtype() != dt {
		return nil, fmt.Errorf("got dtype %v, want %v", d.Dtype(), dt)
	}
	if d.Shape().TotalSize() != s.TotalSize() {
		return nil, fmt.Errorf("got shape %v, want %v", d.Shape(), s)
	}
	if !d.IsMaterializable() && !d.IsMasked() && d.Shape().Eq(s) {
		return d, nil
	}
	c := st.scratch.get(s, dt)
	if err := tensor.Copy(c, d); err != nil {
		return nil, err
	}
	return c, nil
}

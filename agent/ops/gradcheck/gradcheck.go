// Package gradcheck compares the gradients gorgonia computes for a float64 loss graph with central
// finite differences, element by element. It is test support: the fused-op tests of package ops
// and the tests of the critic and actor losses built on them use it, which is why it is a
// package and not a _test file.
package gradcheck

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Param is a float64 parameter tensor of the graph under test. Check perturbs Value in place and
// restores it.
type Param struct {
	Name  string
	Value *tensor.Dense
}

// Build constructs the scalar loss on g. params holds one input node per Param, in order, named
// after it and bound to its Value; everything else the loss needs (data, constants) Build creates
// itself, with unique names.
type Build func(g *G.ExprGraph, params []*G.Node) (loss *G.Node, err error)

// Options tunes Check. The zero value checks every element with step 1e-5 and floor 1e-6.
type Options struct {
	// Step is the finite-difference step h: the numeric derivative is (f(x+h)-f(x-h))/2h.
	Step float64
	// MaxElems caps the elements checked per parameter; larger ones are sampled at random
	// without replacement. 0 checks all.
	MaxElems int
	// Floor keeps relative errors of near-zero gradients meaningful: the error of an element is
	// |analytic-numeric| / max(|analytic|, |numeric|, Floor).
	Floor float64
	// Seed drives the sampling.
	Seed uint64
}

// Result is the comparison for one parameter.
type Result struct {
	Name    string
	Checked int // elements compared
	// MaxAbsErr and MaxRelErr are the largest absolute and relative (see Options.Floor) errors.
	MaxAbsErr, MaxRelErr float64
	// Worst is the flat index of the element with the largest relative error, and Analytic and
	// Numeric are its two derivatives.
	Worst             int
	Analytic, Numeric float64
}

// String formats r for test logs.
func (r Result) String() string {
	return fmt.Sprintf("%s: %d elements, max rel err %.3g, max abs err %.3g (worst [%d]: analytic %.10g, numeric %.10g)",
		r.Name, r.Checked, r.MaxRelErr, r.MaxAbsErr, r.Worst, r.Analytic, r.Numeric)
}

// Checker is a compiled loss graph with its gradient, run by one TapeMachine for every
// evaluation, so that repeated Check calls also test that the graph runs correctly many times.
type Checker struct {
	params []Param
	nodes  []*G.Node
	loss   G.Value // copied out of the graph by a read node
	m      G.VM
}

// New builds the graph, differentiates the loss with respect to all params and compiles it.
func New(params []Param, build Build) (*Checker, error) {
	if len(params) == 0 {
		return nil, errors.New("gradcheck: no parameters")
	}
	g := G.NewGraph()
	c := &Checker{params: params, nodes: make([]*G.Node, len(params))}
	for i, p := range params {
		if p.Value == nil || p.Value.Dtype() != tensor.Float64 || p.Value.IsMaterializable() {
			return nil, fmt.Errorf("gradcheck: parameter %q: want a contiguous float64 tensor", p.Name)
		}
		s := p.Value.Shape()
		c.nodes[i] = G.NewTensor(g, tensor.Float64, s.Dims(), G.WithShape(s...), G.WithName(p.Name), G.WithValue(p.Value))
	}
	loss, err := build(g, c.nodes)
	if err != nil {
		return nil, fmt.Errorf("gradcheck: build: %w", err)
	}
	if _, err := G.Grad(loss, c.nodes...); err != nil {
		return nil, fmt.Errorf("gradcheck: grad: %w", err)
	}
	// The loss node's own value may be overwritten in place later in a run; a read copies it.
	G.Read(loss, &c.loss)
	c.m = G.NewTapeMachine(g, G.BindDualValues(c.nodes...))
	return c, nil
}

// Close releases the machine.
func (c *Checker) Close() error { return c.m.Close() }

// Loss runs the graph once and returns the loss.
func (c *Checker) Loss() (float64, error) {
	l, _, err := c.run(false)
	return l, err
}

// Gradients runs the graph once and returns the loss and a copy of its gradient with respect to
// each parameter.
func (c *Checker) Gradients() (float64, [][]float64, error) {
	return c.run(true)
}

// run runs the graph once and returns the loss and, if asked, copies of the gradients. The
// machine adds into the parameters' gradient buffers on every run, so run zeroes them after each.
func (c *Checker) run(copyGrads bool) (float64, [][]float64, error) {
	c.m.Reset()
	if err := c.m.RunAll(); err != nil {
		return 0, nil, err
	}
	l, err := scalar(c.loss)
	if err != nil {
		return 0, nil, err
	}
	var grads [][]float64
	if copyGrads {
		grads = make([][]float64, len(c.nodes))
	}
	for i, n := range c.nodes {
		v, err := n.Grad()
		if err != nil {
			return 0, nil, fmt.Errorf("gradcheck: gradient of %q: %w", c.params[i].Name, err)
		}
		d, ok := v.(*tensor.Dense)
		if !ok || d.Dtype() != tensor.Float64 || d.Shape().TotalSize() != c.params[i].Value.Shape().TotalSize() {
			return 0, nil, fmt.Errorf("gradcheck: gradient of %q is %v, want a float64 tensor of shape %v",
				c.params[i].Name, v, c.params[i].Value.Shape())
		}
		if copyGrads {
			grads[i] = append([]float64(nil), d.Float64s()...)
		}
		d.Zero()
	}
	return l, grads, nil
}

// Check compares the analytic gradient at the parameters' current values with central
// differences and returns one Result per parameter. Parameter values are restored afterwards.
func (c *Checker) Check(o Options) ([]Result, error) {
	if o.Step == 0 {
		o.Step = 1e-5
	}
	if o.Floor == 0 {
		o.Floor = 1e-6
	}
	_, grads, err := c.Gradients()
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	res := make([]Result, len(c.params))
	for i, p := range c.params {
		x := p.Value.Float64s()
		idx := elements(len(x), o.MaxElems, rng)
		r := Result{Name: p.Name, Checked: len(idx), Worst: -1}
		for _, j := range idx {
			num, err := c.central(x, j, o.Step)
			if err != nil {
				return nil, err
			}
			ana := grads[i][j]
			abs := math.Abs(ana - num)
			rel := abs / max(math.Abs(ana), math.Abs(num), o.Floor)
			if math.IsNaN(rel) {
				rel = math.Inf(1)
			}
			r.MaxAbsErr = max(r.MaxAbsErr, abs)
			if r.Worst < 0 || rel > r.MaxRelErr {
				r.MaxRelErr, r.Worst, r.Analytic, r.Numeric = rel, j, ana, num
			}
		}
		res[i] = r
	}
	return res, nil
}

// central returns the central difference of the loss in element j of x.
func (c *Checker) central(x []float64, j int, h float64) (float64, error) {
	x0 := x[j]
	defer func() { x[j] = x0 }()
	x[j] = x0 + h
	fp, err := c.Loss()
	if err != nil {
		return 0, err
	}
	x[j] = x0 - h
	fm, err := c.Loss()
	if err != nil {
		return 0, err
	}
	return (fp - fm) / (2 * h), nil
}

// Check is New, Checker.Check and Close in one call.
func Check(params []Param, build Build, o Options) ([]Result, error) {
	c, err := New(params, build)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.Check(o)
}

// elements returns the indices to check among n: all, or k distinct ones at random.
func elements(n, k int, rng *rand.Rand) []int {
	if k <= 0 || k >= n {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	return rng.Perm(n)[:k]
}

// scalar reads a scalar loss value.
func scalar(v G.Value) (float64, error) {
	switch v := v.(type) {
	case *G.F64:
		return float64(*v), nil
	case *G.F32:
		return float64(*v), nil
	case tensor.Tensor:
		if v.Shape().TotalSize() == 1 {
			switch d := v.Data().(type) {
			case float64:
				return d, nil
			case []float64:
				return d[0], nil
			case float32:
				return float64(d), nil
			case []float32:
				return float64(d[0]), nil
			}
		}
	}
	return 0, fmt.Errorf("gradcheck: loss is %v (%T), want a scalar", v, v)
}

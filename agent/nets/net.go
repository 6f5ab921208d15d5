package nets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"spg-tui/agent/ops/seq"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ParamSpec describes one parameter tensor and its PyTorch-default initial value: uniform in
// [-bound, bound) when bound > 0 (bound = 1/sqrt(fan_in) for Linear and GRU layers), else the
// constant fill (batch-norm gamma 1 and beta 0, running mean 0 and variance 1).
type ParamSpec struct {
	Name  string
	Shape []int
	Bound float64
	Fill  float64
}

// linearSpecs are the weight (in, out) and, if bias, the bias (out) of nn.Linear(in, out),
// stored transposed so that the layer is x W + b.
func linearSpecs(name string, in, out int, bias bool) []ParamSpec {
	bound := 1 / math.Sqrt(float64(in))
	s := []ParamSpec{{Name: name + ".W", Shape: []int{in, out}, Bound: bound}}
	if bias {
		s = append(s, ParamSpec{Name: name + ".b", Shape: []int{out}, Bound: bound})
	}
	return s
}

// gruSpecs are nn.GRU(in, h)'s four tensors in PyTorch's layout (see seq.GRUWeights).
func gruSpecs(name string, in, h int) []ParamSpec {
	bound := 1 / math.Sqrt(float64(h))
	return []ParamSpec{
		{Name: name + ".Wih", Shape: []int{3 * h, in}, Bound: bound},
		{Name: name + ".Whh", Shape: []int{3 * h, h}, Bound: bound},
		{Name: name + ".bih", Shape: []int{3 * h}, Bound: bound},
		{Name: name + ".bhh", Shape: []int{3 * h}, Bound: bound},
	}
}

// bnSpecs are BatchNorm1d(c)'s affine gamma and beta.
func bnSpecs(name string, c int) []ParamSpec {
	return []ParamSpec{
		{Name: name + ".gamma", Shape: []int{c}, Fill: 1},
		{Name: name + ".beta", Shape: []int{c}, Fill: 0},
	}
}

// RunningSpecs are the running mean and variance of each batch-norm layer, c channels each.
func RunningSpecs(layers []string, c int) []ParamSpec {
	var s []ParamSpec
	for _, l := range layers {
		s = append(s, ParamSpec{Name: l + ".mean", Shape: []int{c}, Fill: 0},
			ParamSpec{Name: l + ".var", Shape: []int{c}, Fill: 1})
	}
	return s
}

// Params is a set of named tensors of one dtype: a network's parameters or its running
// statistics. Graphs bind these tensors as input values, so the tensors are updated in place
// and never replaced.
type Params struct {
	Specs []ParamSpec
	Vals  []*tensor.Dense
}

// NewParams allocates the tensors and initialises them in spec order from rng.
func NewParams(specs []ParamSpec, dt tensor.Dtype, rng *rand.Rand) *Params {
	p := &Params{Specs: specs, Vals: make([]*tensor.Dense, len(specs))}
	for i, s := range specs {
		t := tensor.New(tensor.WithShape(s.Shape...), tensor.Of(dt))
		for j := range t.Shape().TotalSize() {
			v := s.Fill
			if s.Bound > 0 {
				v = s.Bound * (2*rng.Float64() - 1)
			}
			if dt == tensor.Float32 {
				t.Float32s()[j] = float32(v)
			} else {
				t.Float64s()[j] = v
			}
		}
		p.Vals[i] = t
	}
	return p
}

// Float32s returns the tensors' backing slices (the params must be float32).
func (p *Params) Float32s() [][]float32 {
	s := make([][]float32, len(p.Vals))
	for i, v := range p.Vals {
		s[i] = v.Float32s()
	}
	return s
}

// Sizes lists the element counts of the tensors.
func (p *Params) Sizes() []int {
	s := make([]int, len(p.Vals))
	for i, v := range p.Vals {
		s[i] = v.Shape().TotalSize()
	}
	return s
}

// NodeSet maps parameter names to their input nodes in one graph.
type NodeSet map[string]*G.Node

// Nodes adds one input node per tensor to g, named prefix+name and bound to the tensor.
func (p *Params) Nodes(g *G.ExprGraph, prefix string) (NodeSet, []*G.Node) {
	set := make(NodeSet, len(p.Specs))
	list := make([]*G.Node, len(p.Specs))
	for i, s := range p.Specs {
		v := p.Vals[i]
		n := G.NewTensor(g, v.Dtype(), v.Dims(), G.WithShape(v.Shape()...), G.WithName(prefix+s.Name), G.WithValue(v))
		set[s.Name], list[i] = n, n
	}
	return set, list
}

// Get returns the node of parameter name, failing loudly on a name that does not exist (a bug).
func (s NodeSet) Get(name string) *G.Node {
	n, ok := s[name]
	if !ok {
		panic(fmt.Sprintf("nets: no parameter %q", name))
	}
	return n
}

// GRU returns the GRU weights stored under name.
func (s NodeSet) GRU(name string) seq.GRUWeights {
	return seq.GRUWeights{Wih: s.Get(name + ".Wih"), Whh: s.Get(name + ".Whh"), Bih: s.Get(name + ".bih"), Bhh: s.Get(name + ".bhh")}
}

// Float64s returns the tensors' backing slices (the params must be float64).
func (p *Params) Float64s() [][]float64 {
	s := make([][]float64, len(p.Vals))
	for i, v := range p.Vals {
		s[i] = v.Float64s()
	}
	return s
}

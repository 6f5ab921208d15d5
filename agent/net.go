package agent

import (
	"fmt"
	"math"
	"math/rand/v2"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops"
)

// paramSpec describes one parameter tensor and its PyTorch-default initial value: uniform in
// [-bound, bound) when bound > 0 (bound = 1/sqrt(fan_in) for Linear and GRU layers), else the
// constant fill (batch-norm gamma 1 and beta 0, running mean 0 and variance 1).
type paramSpec struct {
	name  string
	shape []int
	bound float64
	fill  float64
}

// linearSpecs are the weight (in, out) and, if bias, the bias (out) of nn.Linear(in, out),
// stored transposed so that the layer is x W + b.
func linearSpecs(name string, in, out int, bias bool) []paramSpec {
	bound := 1 / math.Sqrt(float64(in))
	s := []paramSpec{{name: name + ".W", shape: []int{in, out}, bound: bound}}
	if bias {
		s = append(s, paramSpec{name: name + ".b", shape: []int{out}, bound: bound})
	}
	return s
}

// gruSpecs are nn.GRU(in, h)'s four tensors in PyTorch's layout (see ops.GRUWeights).
func gruSpecs(name string, in, h int) []paramSpec {
	bound := 1 / math.Sqrt(float64(h))
	return []paramSpec{
		{name: name + ".Wih", shape: []int{3 * h, in}, bound: bound},
		{name: name + ".Whh", shape: []int{3 * h, h}, bound: bound},
		{name: name + ".bih", shape: []int{3 * h}, bound: bound},
		{name: name + ".bhh", shape: []int{3 * h}, bound: bound},
	}
}

// bnSpecs are BatchNorm1d(c)'s affine gamma and beta.
func bnSpecs(name string, c int) []paramSpec {
	return []paramSpec{
		{name: name + ".gamma", shape: []int{c}, fill: 1},
		{name: name + ".beta", shape: []int{c}, fill: 0},
	}
}

// runningSpecs are the running mean and variance of each batch-norm layer, c channels each.
func runningSpecs(layers []string, c int) []paramSpec {
	var s []paramSpec
	for _, l := range layers {
		s = append(s, paramSpec{name: l + ".mean", shape: []int{c}, fill: 0},
			paramSpec{name: l + ".var", shape: []int{c}, fill: 1})
	}
	return s
}

// params is a set of named tensors of one dtype: a network's parameters or its running
// statistics. Graphs bind these tensors as input values, so the tensors are updated in place
// and never replaced.
type params struct {
	specs []paramSpec
	vals  []*tensor.Dense
}

// newParams allocates the tensors and initialises them in spec order from rng.
func newParams(specs []paramSpec, dt tensor.Dtype, rng *rand.Rand) *params {
	p := &params{specs: specs, vals: make([]*tensor.Dense, len(specs))}
	for i, s := range specs {
		t := tensor.New(tensor.WithShape(s.shape...), tensor.Of(dt))
		for j := range t.Shape().TotalSize() {
			v := s.fill
			if s.bound > 0 {
				v = s.bound * (2*rng.Float64() - 1)
			}
			if dt == tensor.Float32 {
				t.Float32s()[j] = float32(v)
			} else {
				t.Float64s()[j] = v
			}
		}
		p.vals[i] = t
	}
	return p
}

// float32s returns the tensors' backing slices (the params must be float32).
func (p *params) float32s() [][]float32 {
	s := make([][]float32, len(p.vals))
	for i, v := range p.vals {
		s[i] = v.Float32s()
	}
	return s
}

// sizes lists the element counts of the tensors.
func (p *params) sizes() []int {
	s := make([]int, len(p.vals))
	for i, v := range p.vals {
		s[i] = v.Shape().TotalSize()
	}
	return s
}

// nodeSet maps parameter names to their input nodes in one graph.
type nodeSet map[string]*G.Node

// nodes adds one input node per tensor to g, named prefix+name and bound to the tensor.
func (p *params) nodes(g *G.ExprGraph, prefix string) (nodeSet, []*G.Node) {
	set := make(nodeSet, len(p.specs))
	list := make([]*G.Node, len(p.specs))
	for i, s := range p.specs {
		v := p.vals[i]
		n := G.NewTensor(g, v.Dtype(), v.Dims(), G.WithShape(v.Shape()...), G.WithName(prefix+s.name), G.WithValue(v))
		set[s.name], list[i] = n, n
	}
	return set, list
}

// get returns the node of parameter name, failing loudly on a name that does not exist (a bug).
func (s nodeSet) get(name string) *G.Node {
	n, ok := s[name]
	if !ok {
		panic(fmt.Sprintf("agent: no parameter %q", name))
	}
	return n
}

// gru returns the GRU weights stored under name.
func (s nodeSet) gru(name string) ops.GRUWeights {
	return ops.GRUWeights{Wih: s.get(name + ".Wih"), Whh: s.get(name + ".Whh"), Bih: s.get(name + ".bih"), Bhh: s.get(name + ".bhh")}
}

// float64s returns the tensors' backing slices (the params must be float64).
func (p *params) float64s() [][]float64 {
	s := make([][]float64, len(p.vals))
	for i, v := range p.vals {
		s[i] = v.Float64s()
	}
	return s
}

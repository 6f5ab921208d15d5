// Package opstest holds what the tests of agent/ops and its subpackages share: random tensors,
// forward checks in both float types, gradient checks through a random probe, and the
// bit-for-bit comparison of a fused op with gorgonia's primitive nodes in float32.
package opstest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/linalg/backend"
)

// RandDense returns a float64 tensor of the given shape with entries uniform in [-1, 1).
func RandDense(rng *rand.Rand, shape ...int) *tensor.Dense {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float64))
	for i := range t.Float64s() {
		t.Float64s()[i] = 2*rng.Float64() - 1
	}
	return t
}

// Perturb adds uniform noise in [-a, a) to every parameter in place.
func Perturb(rng *rand.Rand, params []gradcheck.Param, a float64) {
	for _, p := range params {
		for i := range p.Value.Float64s() {
			p.Value.Float64s()[i] += a * (2*rng.Float64() - 1)
		}
	}
}

// CheckGrads fails t if any parameter's relative gradient error exceeds tol.
func CheckGrads(t *testing.T, res []gradcheck.Result, tol float64) {
	t.Helper()
	for _, r := range res {
		if r.Checked == 0 || !(r.MaxRelErr <= tol) {
			t.Errorf("%v (tolerance %g)", r, tol)
		} else {
			t.Logf("%v", r)
		}
	}
}

// Must fails t on err and returns n.
func Must(t *testing.T) func(*G.Node, error) *G.Node {
	return func(n *G.Node, err error) *G.Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// Probe returns sum(C ⊙ y) for a random constant C of y's shape: its gradient with respect to
// y's inputs is the vector-Jacobian product of y's op with the cotangent C, so a gradient check
// of Probe checks the op's whole backward pass.
func Probe(g *G.ExprGraph, y *G.Node, rng *rand.Rand) (*G.Node, error) {
	c := RandDense(rng, y.Shape()...)
	if y.Dtype() == tensor.Float32 {
		c = ToDtype(c, tensor.Float32)
	}
	cn := G.NewTensor(g, y.Dtype(), y.Dims(), G.WithShape(y.Shape()...), G.WithName(fmt.Sprintf("Probe%d", rng.Uint64())), G.WithValue(c))
	p, err := G.HadamardProd(y, cn)
	if err != nil {
		return nil, err
	}
	return G.Sum(p)
}

// ToDtype returns a copy of the float64 tensor t in dtype dt.
func ToDtype(t *tensor.Dense, dt tensor.Dtype) *tensor.Dense {
	out := tensor.New(tensor.WithShape(t.Shape().Clone()...), tensor.Of(dt))
	for i, v := range t.Float64s() {
		if dt == tensor.Float32 {
			out.Float32s()[i] = float32(v)
		} else {
			out.Float64s()[i] = v
		}
	}
	return out
}

// RunForward builds the op with build over inputs holding vals converted to dt, runs the graph
// once and returns the op's output as float64.
func RunForward(t *testing.T, dt tensor.Dtype, vals []*tensor.Dense, build func([]*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	nodes := make([]*G.Node, len(vals))
	for i, v := range vals {
		nodes[i] = G.NewTensor(g, dt, v.Dims(), G.WithShape(v.Shape()...), G.WithName(fmt.Sprintf("in%d", i)), G.WithValue(ToDtype(v, dt)))
	}
	y, err := build(nodes)
	if err != nil {
		t.Fatal(err)
	}
	var yv G.Value
	G.Read(y, &yv)
	m := G.NewTapeMachine(g)
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	return Float64s(t, yv.Data())
}

// CheckForward runs build in float64 and float32 and compares both with want: to rounding in
// float64, to tol32 (relative to max(1, |want|)) in float32.
func CheckForward(t *testing.T, vals []*tensor.Dense, want []float64, tol32 float64, build func([]*G.Node) (*G.Node, error)) {
	t.Helper()
	for _, c := range []struct {
		dt  tensor.Dtype
		tol float64
	}{{tensor.Float64, 1e-12}, {tensor.Float32, tol32}} {
		got := RunForward(t, c.dt, vals, build)
		if len(got) != len(want) {
			t.Fatalf("%v: %d outputs, want %d", c.dt, len(got), len(want))
		}
		for i := range want {
			if d := math.Abs(got[i] - want[i]); !(d <= c.tol*max(1, math.Abs(want[i]))) {
				t.Errorf("%v: out[%d] = %v, want %v", c.dt, i, got[i], want[i])
			}
		}
	}
}

// GradParams wraps float64 tensors as gradcheck parameters named p0, p1, ...
func GradParams(vals ...*tensor.Dense) []gradcheck.Param {
	ps := make([]gradcheck.Param, len(vals))
	for i, v := range vals {
		ps[i] = gradcheck.Param{Name: fmt.Sprintf("p%d", i), Value: v}
	}
	return ps
}

// CheckOpGrads gradient-checks, against finite differences, the op that build makes from the
// parameter nodes, through Probe (so the op's whole backward pass is checked).
func CheckOpGrads(t *testing.T, rng *rand.Rand, params []gradcheck.Param, build func(g *G.ExprGraph, p []*G.Node) (*G.Node, error)) {
	t.Helper()
	CheckOpGradsWith(t, rng, params, gradcheck.Options{}, build)
}

// CheckOpGradsWith is CheckOpGrads under the given options, e.g. a sample of the elements
// (MaxElems, Seed) for an op large enough to be split over the cores.
func CheckOpGradsWith(t *testing.T, rng *rand.Rand, params []gradcheck.Param, opts gradcheck.Options, build func(g *G.ExprGraph, p []*G.Node) (*G.Node, error)) {
	t.Helper()
	res, err := gradcheck.Check(params, func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		y, err := build(g, p)
		if err != nil {
			return nil, err
		}
		return Probe(g, y, rng)
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	CheckGrads(t, res, 1e-6)
}

// Rand32 returns a float32 tensor of the given shape with entries uniform in [-1, 1).
func Rand32(rng *rand.Rand, shape ...int) *tensor.Dense {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
	for i := range t.Float32s() {
		t.Float32s()[i] = 2*rng.Float32() - 1
	}
	return t
}

// Float32Run builds y = build(inputs) in float32 over copies of vals, runs it with the loss
// sum(y . r) and returns y and the gradients of the inputs marked in wrt (nil for the others),
// with gorgonia's own products on the kernels' BLAS, as the learner sets it.
func Float32Run(t *testing.T, vals []*tensor.Dense, wrt []bool, r *tensor.Dense, build func([]*G.Node) (*G.Node, error)) [][]float32 {
	t.Helper()
	defer G.Use(G.WhichBLAS())
	G.Use(backend.Implementation())
	g := G.NewGraph()
	nodes := make([]*G.Node, len(vals))
	var ws []*G.Node
	for i, v := range vals {
		nodes[i] = G.NewTensor(g, tensor.Float32, v.Dims(), G.WithShape(v.Shape()...), G.WithName(fmt.Sprintf("in%d", i)), G.WithValue(v.Clone()))
		if wrt[i] {
			ws = append(ws, nodes[i])
		}
	}
	y := Must(t)(build(nodes))
	rn := G.NewTensor(g, tensor.Float32, r.Dims(), G.WithShape(r.Shape()...), G.WithName("r"), G.WithValue(r.Clone()))
	loss := Must(t)(G.Sum(Must(t)(G.HadamardProd(y, rn))))
	if _, err := G.Grad(loss, ws...); err != nil {
		t.Fatal(err)
	}
	var yv G.Value
	G.Read(y, &yv)
	vm := G.NewTapeMachine(g, G.BindDualValues(ws...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	out := [][]float32{Slices32(yv)}
	for _, n := range ws {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Slices32(gv))
	}
	return out
}

// SameAsGorgonia fails t unless got and want, each the output then the gradients of
// Float32Run, are equal bit for bit.
func SameAsGorgonia(t *testing.T, got, want [][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d outputs and gradients, gorgonia's %d", len(got), len(want))
	}
	for w := range want {
		if len(got[w]) != len(want[w]) {
			t.Fatalf("value %d: %d elements, gorgonia's %d", w, len(got[w]), len(want[w]))
		}
		for i := range want[w] {
			if got[w][i] != want[w][i] {
				t.Fatalf("value %d (0: output, then gradients) element %d = %v, gorgonia's %v", w, i, got[w][i], want[w][i])
			}
		}
	}
}

// Slices32 copies a float32 value's elements.
func Slices32(v G.Value) []float32 {
	return append([]float32(nil), v.Data().([]float32)...)
}

// Float64s converts a float32 or float64 slice.
func Float64s(t *testing.T, d any) []float64 {
	t.Helper()
	switch d := d.(type) {
	case []float64:
		return d
	case []float32:
		out := make([]float64, len(d))
		for i, v := range d {
			out[i] = float64(v)
		}
		return out
	}
	t.Fatalf("data is %T", d)
	return nil
}

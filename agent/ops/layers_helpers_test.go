package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
)

// Helpers shared by the tests of the layer ops (Dense, PairOuter, GRU, BatchNorm).

// probe returns sum(C ⊙ y) for a random constant C of y's shape: its gradient with respect to
// y's inputs is the vector-Jacobian product of y's op with the cotangent C, so a gradient check
// of probe checks the op's whole backward pass.
func probe(g *G.ExprGraph, y *G.Node, rng *rand.Rand) (*G.Node, error) {
	c := randDense(rng, y.Shape()...)
	if y.Dtype() == tensor.Float32 {
		c = toDtype(c, tensor.Float32)
	}
	cn := G.NewTensor(g, y.Dtype(), y.Dims(), G.WithShape(y.Shape()...), G.WithName(fmt.Sprintf("probe%d", rng.Uint64())), G.WithValue(c))
	p, err := G.HadamardProd(y, cn)
	if err != nil {
		return nil, err
	}
	return G.Sum(p)
}

// toDtype returns a copy of the float64 tensor t in dtype dt.
func toDtype(t *tensor.Dense, dt tensor.Dtype) *tensor.Dense {
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

// runForward builds the op with build over inputs holding vals converted to dt, runs the graph
// once and returns the op's output as float64.
func runForward(t *testing.T, dt tensor.Dtype, vals []*tensor.Dense, build func([]*G.Node) (*G.Node, error)) []float64 {
	t.Helper()
	g := G.NewGraph()
	nodes := make([]*G.Node, len(vals))
	for i, v := range vals {
		nodes[i] = G.NewTensor(g, dt, v.Dims(), G.WithShape(v.Shape()...), G.WithName(fmt.Sprintf("in%d", i)), G.WithValue(toDtype(v, dt)))
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
	return float64s(t, yv.Data())
}

// checkForward runs build in float64 and float32 and compares both with want: to rounding in
// float64, to tol32 (relative to max(1, |want|)) in float32.
func checkForward(t *testing.T, vals []*tensor.Dense, want []float64, tol32 float64, build func([]*G.Node) (*G.Node, error)) {
	t.Helper()
	for _, c := range []struct {
		dt  tensor.Dtype
		tol float64
	}{{tensor.Float64, 1e-12}, {tensor.Float32, tol32}} {
		got := runForward(t, c.dt, vals, build)
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

// gradParams wraps float64 tensors as gradcheck parameters named p0, p1, ...
func gradParams(vals ...*tensor.Dense) []gradcheck.Param {
	ps := make([]gradcheck.Param, len(vals))
	for i, v := range vals {
		ps[i] = gradcheck.Param{Name: fmt.Sprintf("p%d", i), Value: v}
	}
	return ps
}

// leaky is the reference LeakyReLU.
func leaky(v float64) float64 {
	if v < 0 {
		return LeakySlope * v
	}
	return v
}

// checkOpGrads gradient-checks, against finite differences, the op that build makes from the
// parameter nodes, through probe (so the op's whole backward pass is checked).
func checkOpGrads(t *testing.T, rng *rand.Rand, params []gradcheck.Param, build func(g *G.ExprGraph, p []*G.Node) (*G.Node, error)) {
	t.Helper()
	res, err := gradcheck.Check(params, func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		y, err := build(g, p)
		if err != nil {
			return nil, err
		}
		return probe(g, y, rng)
	}, gradcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkGrads(t, res, 1e-6)
}

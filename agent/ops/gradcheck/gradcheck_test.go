package gradcheck

import (
	"math"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func param(name string, shape []int, vals ...float64) Param {
	return Param{Name: name, Value: tensor.New(tensor.WithShape(shape...), tensor.WithBacking(vals))}
}

// loss = Σ a² · Σ tanh(b): gorgonia's own ops, so the analytic gradients are right.
func build(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
	sa, err := G.Sum(G.Must(G.Square(p[0])))
	if err != nil {
		return nil, err
	}
	sb, err := G.Sum(G.Must(G.Tanh(p[1])))
	if err != nil {
		return nil, err
	}
	return G.HadamardProd(sa, sb)
}

func TestCheck(t *testing.T) {
	a := param("a", []int{2, 3}, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6)
	b := param("b", []int{4}, 0.5, -1, 1.5, 0.25)
	before := [][]float64{slices.Clone(a.Value.Float64s()), slices.Clone(b.Value.Float64s())}
	res, err := Check([]Param{a, b}, build, Options{MaxElems: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.Checked != 3 || r.MaxRelErr > 1e-7 || r.Worst < 0 {
			t.Errorf("%v", r)
		}
		if got := []*tensor.Dense{a.Value, b.Value}[i].Float64s(); !slices.Equal(got, before[i]) {
			t.Errorf("%s not restored: %v, want %v", r.Name, got, before[i])
		}
	}
}

func TestGradientsAndLoss(t *testing.T) {
	a := param("a", []int{2}, 1, 2)
	b := param("b", []int{1}, 0.5)
	c, err := New([]Param{a, b}, build)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := 5 * math.Tanh(0.5)
	for run := range 3 { // gradients must not pile up from run to run
		l, g, err := c.Gradients()
		if err != nil {
			t.Fatal(err)
		}
		th := math.Tanh(0.5)
		if math.Abs(l-want) > 1e-15 || math.Abs(g[0][0]-2*th) > 1e-15 || math.Abs(g[0][1]-4*th) > 1e-15 ||
			math.Abs(g[1][0]-5*(1-th*th)) > 1e-15 {
			t.Errorf("run %d: loss %v, gradients %v", run, l, g)
		}
		if _, err := c.Loss(); err != nil {
			t.Fatal(err)
		}
	}
}

// A graph whose gradient gorgonia gets wrong (see the notes: InverseSqrt) must fail the check.
func TestCheckDetectsWrongGradient(t *testing.T) {
	a := param("a", []int{3}, 0.5, 1, 2)
	res, err := Check([]Param{a}, func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return G.Sum(G.Must(G.InverseSqrt(p[0])))
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].MaxRelErr < 0.1 {
		t.Errorf("wrong gradient passed: %v", res[0])
	}
}

func TestNewErrors(t *testing.T) {
	f32 := Param{Name: "f", Value: tensor.New(tensor.WithShape(2), tensor.WithBacking([]float32{1, 2}))}
	for name, ps := range map[string][]Param{
		"none":    nil,
		"float32": {f32},
		"nil":     {{Name: "n"}},
	} {
		if _, err := New(ps, build); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

package ops

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
)

// randDense returns a float64 tensor of the given shape with entries uniform in [-1, 1).
func randDense(rng *rand.Rand, shape ...int) *tensor.Dense {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float64))
	for i := range t.Float64s() {
		t.Float64s()[i] = 2*rng.Float64() - 1
	}
	return t
}

// perturb adds uniform noise in [-a, a) to every parameter in place.
func perturb(rng *rand.Rand, params []gradcheck.Param, a float64) {
	for _, p := range params {
		for i := range p.Value.Float64s() {
			p.Value.Float64s()[i] += a * (2*rng.Float64() - 1)
		}
	}
}

// checkGrads fails t if any parameter's relative gradient error exceeds tol.
func checkGrads(t *testing.T, res []gradcheck.Result, tol float64) {
	t.Helper()
	for _, r := range res {
		if r.Checked == 0 || !(r.MaxRelErr <= tol) {
			t.Errorf("%v (tolerance %g)", r, tol)
		} else {
			t.Logf("%v", r)
		}
	}
}

// must fails t on err and returns n.
func must(t *testing.T) func(*G.Node, error) *G.Node {
	return func(n *G.Node, err error) *G.Node {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

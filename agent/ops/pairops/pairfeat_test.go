package pairops

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
	"spg-tui/agent/ops/layers"
	"spg-tui/linalg/pairs"
	"spg-tui/linalg/parallel"
)

func TestPairFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for _, c := range []struct {
		name  string
		shape []int
		rows  PairRows
		width int
		ref   func(dst, x []float64, b, n int)
	}{
		{"mwm", []int{2, 6, 2}, TwoPointSets, pairs.MatchingWidth, pairs.Matching[float64]},
		{"sort", []int{2, 4, 1}, Values, pairs.SortWidth, pairs.Sort[float64]},
		{"tsp", []int{2, 5, 2}, OnePointSet, pairs.TourWidth, pairs.Tour[float64]},
		{"tsp-local", []int{2, 5, 2}, LocalPointSet, pairs.TourLocalWidth, pairs.TourLocal[float64]},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := opstest.RandDense(rng, c.shape...)
			b, n := c.shape[0], c.shape[1]
			if c.rows == TwoPointSets {
				n /= 2
			}
			want := make([]float64, b*n*n*c.width)
			c.ref(want, x.Float64s(), b, n)
			opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return PairFeatures(p[0], c.rows) })

			// The pairwise network's first layers: a Dense over the features (a 4-axis input)
			// differentiates its weights through the data node.
			w := opstest.RandDense(rng, c.width, 3)
			opstest.CheckOpGrads(t, rng, opstest.GradParams(w), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
				xn := G.NewTensor(g, tensor.Float64, 3, G.WithShape(c.shape...), G.WithName("x"), G.WithValue(x))
				f, err := PairFeatures(xn, c.rows)
				if err != nil {
					return nil, err
				}
				return layers.Dense(f, p[0], nil, layers.DenseOptions{Act: layers.LeakyReLU, NoInputGrad: true})
			})
		})
	}
	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 2), G.WithName("odd"))
	if _, err := PairFeatures(bad, TwoPointSets); err == nil {
		t.Error("PairFeatures accepted an odd number of MWM points")
	}
	// Two features per item are two point sets only when the caller says so: a tour's cities
	// (B, N, 2) read as values are refused, not paired as A against B.
	cities := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 4, 2), G.WithName("cities"))
	if _, err := PairFeatures(cities, Values); err == nil {
		t.Error("PairFeatures read (B, N, 2) states as values")
	}
	if _, err := PairFeatures(G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 4, 1), G.WithName("values")), OnePointSet); err == nil {
		t.Error("PairFeatures read (B, N, 1) states as cities")
	}
}

// TestPairFeaturesSplitsStates checks that a training batch's features are written inside a
// parallel loop (not in the step's serial part) and are those of one pass over the batch.
func TestPairFeaturesSplitsStates(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	const b, n = 128, 10
	rng := rand.New(rand.NewPCG(29, 30))
	for _, c := range []struct {
		rows       PairRows
		rowsN, col int
		width      int
		ref        func(dst, x []float32, b, n int)
	}{
		{TwoPointSets, 2 * n, 2, pairs.MatchingWidth, pairs.Matching[float32]},
		{Values, n, 1, pairs.SortWidth, pairs.Sort[float32]},
		{OnePointSet, n, 2, pairs.TourWidth, pairs.Tour[float32]},
		{LocalPointSet, n, 2, pairs.TourLocalWidth, pairs.TourLocal[float32]},
	} {
		x := make([]float32, b*c.rowsN*c.col)
		for i := range x {
			x[i] = rng.Float32()
		}
		want := make([]float32, b*n*n*c.width)
		c.ref(want, x, b, n)
		in := tensor.New(tensor.WithShape(b, c.rowsN, c.col), tensor.WithBacking(x))
		out := tensor.New(tensor.WithShape(b, n, n, c.width), tensor.Of(tensor.Float32))
		parallel.Account(true)
		err := (&pairFeatures[float32]{rows: c.rows}).Forward([]*tensor.Dense{in}, out)
		parallel.Account(false)
		if err != nil {
			t.Fatal(err)
		}
		if parallel.Accounted().Wall == 0 {
			t.Errorf("rows %d: the features were written outside any parallel loop", c.rows)
		}
		if !slices.Equal(out.Float32s(), want) {
			t.Errorf("rows %d: features differ from one pass over the batch", c.rows)
		}
	}
}

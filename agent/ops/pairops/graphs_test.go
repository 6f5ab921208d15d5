package pairops

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
	"spg-tui/linalg/parallel"
)

// randAdjacency is b pairs of symmetric 0/1 matrices with zero diagonal, (b, 2n, n), with
// node 0 of each G1 isolated.
func randAdjacency(rng *rand.Rand, b, n int) *tensor.Dense {
	x := tensor.New(tensor.WithShape(b, 2*n, n), tensor.Of(tensor.Float64))
	v := x.Float64s()
	for g := range 2 * b {
		a := v[g*n*n:][:n*n]
		for i := range n {
			for j := i + 1; j < n; j++ {
				if (g%2 == 1 || i > 0) && rng.IntN(2) == 1 {
					a[i*n+j], a[j*n+i] = 1, 1
				}
			}
		}
	}
	return x
}

func TestRowMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const b, n = 2, 5
	x := randAdjacency(rng, b, n)
	v := x.Float64s()
	want := make([]float64, len(v))
	for r := range 2 * b * n {
		deg := 0.0
		for j := range n {
			deg += v[r*n+j]
		}
		for j := range n {
			if deg > 0 {
				want[r*n+j] = v[r*n+j] / deg
			}
		}
	}
	a := tensor.New(tensor.WithShape(2*b, n, n), tensor.WithBacking(v))
	opstest.CheckForward(t, []*tensor.Dense{a}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return RowMean(p[0]) })
}

func TestGraphPairFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const b, n = 2, 4
	x := randAdjacency(rng, b, n)
	v := x.Float64s()
	want := make([]float64, b*n*n*GraphPairWidth)
	for s := range b {
		a1 := func(i, j int) float64 { return v[s*2*n*n+i*n+j] }
		deg := func(i int) float64 {
			d := 0.0
			for j := range n {
				d += a1(i, j)
			}
			return d / (n - 1)
		}
		mean := 0.0
		for i := range n {
			mean += deg(i) / n
		}
		for i := range n {
			for k := range n {
				copy(want[((s*n+i)*n+k)*GraphPairWidth:], []float64{a1(i, k), deg(i), deg(k), mean})
			}
		}
	}
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return GraphPairFeatures(p[0]) })
	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 5, 3), G.WithName("bad"))
	if _, err := GraphPairFeatures(bad); err == nil {
		t.Error("GraphPairFeatures accepted a (B, 5, 3) state")
	}
}

// TestGraphOpsSplitStates checks that RowMean and GraphPairFeatures of a training batch run
// inside parallel loops (not in the step's serial part) and give one serial pass's values.
func TestGraphOpsSplitStates(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	const b, n = 128, 20
	rng := rand.New(rand.NewPCG(31, 32))
	x := make([]float32, b*2*n*n)
	for i := range x {
		x[i] = float32(rng.IntN(2))
	}
	in := []*tensor.Dense{tensor.New(tensor.WithShape(b, 2*n, n), tensor.WithBacking(x))}
	means := make([]float32, len(x))
	for r := 0; r < len(x); r += n {
		var s float32
		for _, v := range x[r : r+n] {
			s += v
		}
		for j, v := range x[r : r+n] {
			if s != 0 {
				means[r+j] = v / s
			}
		}
	}
	pairsWant := make([]float32, b*n*n*GraphPairWidth)
	graphPairs(pairsWant, x, n, 0, b)
	for _, c := range []struct {
		name string
		k    interface {
			Forward([]*tensor.Dense, *tensor.Dense) error
		}
		shape []int
		want  []float32
	}{
		{"RowMean", &rowMean[float32]{}, []int{b, 2 * n, n}, means},
		{"GraphPairFeatures", &graphPairFeatures[float32]{}, []int{b, n, n, GraphPairWidth}, pairsWant},
	} {
		out := tensor.New(tensor.WithShape(c.shape...), tensor.Of(tensor.Float32))
		parallel.Account(true)
		err := c.k.Forward(in, out)
		parallel.Account(false)
		if err != nil {
			t.Fatal(err)
		}
		if parallel.Accounted().Wall == 0 {
			t.Errorf("%s ran outside any parallel loop", c.name)
		}
		if !slices.Equal(out.Float32s(), c.want) {
			t.Errorf("%s differs from one serial pass", c.name)
		}
	}
}

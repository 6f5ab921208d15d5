package nets

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The tour critic on a permutation is the sum of G over the tour's directed edges, city
// perm[j] to city perm[j+1], the last back to the first: checked against that sum written out.
// On the uniform action (every city everywhere), whose adjacency puts 1/N on every pair and on
// the self-pairs, it is the sum over the cities of their mean weight to the others: the blur
// scores as random edges, not as the self-pairs' g_ii.
func TestTourQSumsTheTourEdges(t *testing.T) {
	const b, n = 3, 5
	rng := rand.New(rand.NewPCG(72, 1))
	gv := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	for i := range gv.Float64s() {
		gv.Float64s()[i] = rng.NormFloat64()
	}
	av := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	tours := make([][]int, b)
	for s := range b {
		tours[s] = rng.Perm(n) // tours[s][j] is the city at place j
		for j, c := range tours[s] {
			av.Float64s()[(s*n+c)*n+j] = 1
		}
	}
	uv := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	for i := range uv.Float64s() {
		uv.Float64s()[i] = 1 / float64(n)
	}
	g := G.NewGraph()
	node := func(v *tensor.Dense, name string) *G.Node {
		return G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(name), G.WithValue(v))
	}
	qs, err := tourQ(node(gv, "g"), []*G.Node{node(av, "a"), node(uv, "u")}, n)
	if err != nil {
		t.Fatal(err)
	}
	var q, qu G.Value
	G.Read(qs[0], &q)
	G.Read(qs[1], &qu)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	for s := range b {
		var want float64
		for j, c := range tours[s] {
			want += gv.Float64s()[(s*n+c)*n+tours[s][(j+1)%n]]
		}
		if got := q.Data().([]float64)[s]; math.Abs(got-want) > 1e-12 {
			t.Errorf("tour %v: Q = %v, want the sum of its edges' G, %v", tours[s], got, want)
		}
		var random float64
		for i := range n {
			for k := range n {
				if k != i {
					random += gv.Float64s()[(s*n+i)*n+k] / float64(n-1)
				}
			}
		}
		if got := qu.Data().([]float64)[s]; math.Abs(got-random) > 1e-12 {
			t.Errorf("state %d, uniform action: Q = %v, want the cities' mean weights summed, %v", s, got, random)
		}
	}
}

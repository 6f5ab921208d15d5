package ops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/backend"
)

// rand32 returns a float32 tensor of the given shape with entries uniform in [-1, 1).
func rand32(rng *rand.Rand, shape ...int) *tensor.Dense {
	t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
	for i := range t.Float32s() {
		t.Float32s()[i] = 2*rng.Float32() - 1
	}
	return t
}

// float32Run builds y = build(inputs) in float32 over copies of vals, runs it with the loss
// sum(y . r) and returns y and the gradients of the inputs marked in wrt (nil for the others),
// with gorgonia's own products on the kernels' BLAS, as the learner sets it.
func float32Run(t *testing.T, vals []*tensor.Dense, wrt []bool, r *tensor.Dense, build func([]*G.Node) (*G.Node, error)) [][]float32 {
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
	y := must(t)(build(nodes))
	rn := G.NewTensor(g, tensor.Float32, r.Dims(), G.WithShape(r.Shape()...), G.WithName("r"), G.WithValue(r.Clone()))
	loss := must(t)(G.Sum(must(t)(G.HadamardProd(y, rn))))
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
	out := [][]float32{slices32(yv)}
	for _, n := range ws {
		gv, err := n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices32(gv))
	}
	return out
}

// sameAsGorgonia fails t unless got and want, each the output then the gradients of
// float32Run, are equal bit for bit.
func sameAsGorgonia(t *testing.T, got, want [][]float32) {
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

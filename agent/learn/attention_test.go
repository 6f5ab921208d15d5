package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops/gradcheck"
	"spg-tui/envs"
	"spg-tui/run"
)

// attentionH is a toy hidden width that SPG+Attention's heads divide.
const attentionH = 8

// SPG+Attention's actor, every encoder layer included, and its critic loss, against central
// differences in float64. The actor is checked through a random linear function of M, sum(C*M),
// whose gradients reach 0.05; the floor of 1e-4 on the relative error's denominator keeps the
// finite differences' rounding (1e-10 on a sum of 10) from failing the near-zero ones.
func TestAttentionGradients(t *testing.T) {
	a := testArch(t, run.ModelAttention, envs.TaskTSP, checkN, attentionH)
	rng := rand.New(rand.NewPCG(81, 1))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	tb := newToyBatch(a, envs.TaskTSP, checkB, checkN, rng)
	checkCriticLoss(t, a, cp, tb, 1)
	c := tensor.New(tensor.WithShape(checkB, checkN, checkN), tensor.Of(tensor.Float64))
	for i := range c.Float64s() {
		c.Float64s()[i] = rng.NormFloat64()
	}
	res, err := gradcheck.Check(asGradParams(ap), func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
		m, err := policyAt(a, constant(g, tb.x, "x"), nodeSetOf(ap, nodes), 0.3, 4)
		if err != nil {
			return nil, err
		}
		cm, err := G.HadamardProd(m, constant(g, c, "c"))
		if err != nil {
			return nil, err
		}
		return G.Sum(cm)
	}, gradcheck.Options{MaxElems: 12, Seed: 3, Floor: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, res, 1e-5)
	if len(res) != len(a.ActorSpecs()) {
		t.Errorf("%d actor tensors checked, want %d", len(res), len(a.ActorSpecs()))
	}
}

// Relabelling an instance's cities relabels the rows of its soft permutation alike, and an
// instance's M does not depend on the rest of the batch.
func TestAttentionEquivariant(t *testing.T) {
	const b, n = 3, 6
	a := testArch(t, run.ModelAttention, envs.TaskTSP, n, attentionH)
	rng := rand.New(rand.NewPCG(82, 1))
	ap := randParams(a.ActorSpecs(), rng)
	x := tensor.New(tensor.WithShape(a.StateShape(b)...), tensor.Of(tensor.Float64))
	for i := range x.Float64s() {
		x.Float64s()[i] = rng.Float64()
	}
	perm := rng.Perm(n)
	px := x.Clone().(*tensor.Dense) // instance 0's cities relabelled: new city i is old perm[i]
	for i, j := range perm {
		copy(px.Float64s()[2*i:2*i+2], x.Float64s()[2*j:2*j+2])
	}
	for i := 2 * n; i < 4*n; i++ { // and instance 1 replaced by another
		px.Float64s()[i] = rng.Float64()
	}
	m, pm := attentionM(t, a, ap, x), attentionM(t, a, ap, px)
	for i, j := range perm {
		for c := range n {
			if d := math.Abs(pm[i*n+c] - m[j*n+c]); d > 1e-12 {
				t.Fatalf("relabelled M[%d][%d] = %v, want M[%d][%d] = %v", i, c, pm[i*n+c], j, c, m[j*n+c])
			}
		}
	}
	for k := 2 * n * n; k < 3*n*n; k++ {
		if m[k] != pm[k] {
			t.Fatalf("instance 2's M[%d] changed with instance 1: %v, %v", k-2*n*n, m[k], pm[k])
		}
	}
}

// attentionM runs a's actor with parameters ap on the states x and returns M.
func attentionM(t *testing.T, a nets.Arch, ap *nets.Params, x *tensor.Dense) []float64 {
	t.Helper()
	g := G.NewGraph()
	p := make(nets.NodeSet)
	for i, s := range ap.Specs {
		p[s.Name] = constant(g, ap.Vals[i], s.Name)
	}
	m, err := policyAt(a, constant(g, x, "x"), p, 0.3, 5)
	if err != nil {
		t.Fatal(err)
	}
	var mv G.Value
	G.Read(m, &mv)
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	return append([]float64(nil), mv.Data().([]float64)...)
}

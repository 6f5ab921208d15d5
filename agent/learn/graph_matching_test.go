package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/envs/gm"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/perm"
)

// gmStates is b graph-matching states (b, 2n, n) drawn as the task draws them: ER G1 with
// p = 0.5 and G2 its relabelled copy with noise 0.2.
func gmStates(rng *rand.Rand, b, n int) *tensor.Dense {
	x := tensor.New(tensor.WithShape(b, 2*n, n), tensor.Of(tensor.Float64))
	v := x.Float64s()
	for s := range b {
		g1, g2, _ := gm.Generate(rng, gm.Params{N: n, Graph: gm.ErdosRenyi, P: 0.5, Noise: 0.2})
		for i := range n {
			for j := range n {
				v[(s*2*n+i)*n+j] = float64(g1[i][j])
				v[(s*2*n+n+i)*n+j] = float64(g2[i][j])
			}
		}
	}
	return x
}

// The graph-matching critic loss (penalty off and on) and the actor loss through the
// critic, against central differences in float64.
func TestGraphMatchingGradients(t *testing.T) {
	a := testArch(t, "spg-gm", envs.TaskGM, checkN, checkH)
	rng := rand.New(rand.NewPCG(81, 82))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	tb := newToyBatch(a, envs.TaskMWM, checkB, checkN, rng)
	tb.x = gmStates(rng, checkB, checkN)
	for _, w := range []float64{0, 1} {
		checkCriticLoss(t, a, cp, tb, w)
	}
	t.Logf("%d actor tensors checked", checkActorLoss(t, a, ap, cp, tb, 1e-5))
}

// runGM evaluates the actor's M (tau 1, 10 iterations) and, for the action act, the critic's
// Q on the states x, in float64.
func runGM(t *testing.T, a nets.Arch, ap, cp *nets.Params, x, act *tensor.Dense) (m, q []float64) {
	t.Helper()
	g := G.NewGraph()
	pa, _ := ap.Nodes(g, "actor.")
	pc, _ := cp.Nodes(g, "critic.")
	xn := constant(g, x, "x")
	mn, err := policyAt(a, xn, pa, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := a.Critic(&nets.CriticCtx{P: pc}, xn, []*G.Node{constant(g, act, "act")})
	if err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(mn.Value().Data().([]float64)), slices.Clone(qs[0].Value().Data().([]float64))
}

// Relabelling G1's nodes permutes the columns of M and relabelling G2's its rows; the critic's
// Q of a permutation is unchanged when the action is relabelled with the graphs, and it is a
// sum over preserved pairs: an action that maps no G1 edge onto a G2 edge scores 0.
func TestGraphMatchingIsEquivariant(t *testing.T) {
	checkGMEquivariant(t, "spg-gm", gmStates)
}

// checkGMEquivariant is TestGraphMatchingIsEquivariant's check of the named model, on states
// that states draws.
func checkGMEquivariant(t *testing.T, model string, states func(rng *rand.Rand, b, n int) *tensor.Dense) {
	const b, n = 3, 6
	a := testArch(t, model, envs.TaskGM, n, 5)
	rng := rand.New(rand.NewPCG(83, 84))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	x := states(rng, b, n)
	act := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	perms := make([][]int, b) // perms[s][j] = the G2 node of G1's node j
	for s := range b {
		perms[s] = rng.Perm(n)
		for j, i := range perms[s] {
			act.Float64s()[(s*n+i)*n+j] = 1
		}
	}
	m, q := runGM(t, a, ap, cp, x, act)

	r1, r2 := rng.Perm(n), rng.Perm(n) // new node i is old node r1[i] (G1), r2[i] (G2)
	inv1, inv2 := make([]int, n), make([]int, n)
	for i := range n {
		inv1[r1[i]], inv2[r2[i]] = i, i
	}
	moved := tensor.New(tensor.WithShape(b, 2*n, n), tensor.Of(tensor.Float64))
	movedAct := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	v, mv := x.Float64s(), moved.Float64s()
	for s := range b {
		for i := range n {
			for j := range n {
				mv[(s*2*n+i)*n+j] = v[(s*2*n+r1[i])*n+r1[j]]
				mv[(s*2*n+n+i)*n+j] = v[(s*2*n+n+r2[i])*n+r2[j]]
			}
		}
		for j := range n { // new G1 node j is old r1[j], mapped to old G2 node perms[s][r1[j]]
			movedAct.Float64s()[(s*n+inv2[perms[s][r1[j]]])*n+j] = 1
		}
	}
	mm, qm := runGM(t, a, ap, cp, moved, movedAct)
	for s := range b {
		for i := range n {
			for j := range n {
				got, want := mm[(s*n+i)*n+j], m[(s*n+r2[i])*n+r1[j]]
				if math.Abs(got-want) > 1e-9 {
					t.Fatalf("state %d: M'[%d][%d] = %g, want M[%d][%d] = %g", s, i, j, got, r2[i], r1[j], want)
				}
			}
		}
		if math.Abs(qm[s]-q[s]) > 1e-9 {
			t.Fatalf("state %d: Q' = %g, want Q = %g", s, qm[s], q[s])
		}
	}

	// G1 and G2 a single edge {0, 1} each: on a permutation Q is 2 W over the G1 pair mapped
	// onto G2's edge, so maps that keep {0, 1} on it score alike whatever they do elsewhere,
	// and one that maps {0, 2} onto it scores differently.
	one := tensor.New(tensor.WithShape(1, 2*n, n), tensor.Of(tensor.Float64))
	for _, r := range []int{0, n} {
		one.Float64s()[(r+0)*n+1], one.Float64s()[(r+1)*n+0] = 1, 1
	}
	score := func(p []int) float64 {
		act := tensor.New(tensor.WithShape(1, n, n), tensor.Of(tensor.Float64))
		for j, i := range p {
			act.Float64s()[i*n+j] = 1
		}
		_, q := runGM(t, a, ap, cp, one, act)
		return q[0]
	}
	keep, keepToo, other := score([]int{0, 1, 2, 3, 4, 5}), score([]int{1, 0, 3, 2, 5, 4}), score([]int{0, 2, 1, 3, 4, 5})
	if math.Abs(keep-keepToo) > 1e-9 || math.Abs(keep-other) < 1e-6 {
		t.Fatalf("Q keeping the edge %g and %g, moving it %g", keep, keepToo, other)
	}
}

// On noiseless random 4-regular graphs, where every node has the same degree and neighbour
// means, the untrained actor (its initial parameters) already finds correspondences that keep
// nearly every edge: the walk counts tell the nodes apart and the consensus rounds align them.
// From degrees alone every score would be equal and M uniform.
func TestGraphMatchingBreaksRegularSymmetry(t *testing.T) {
	const b, n = 4, 12
	a := testArch(t, "spg-gm", envs.TaskGM, n, 8)
	rng := rand.New(rand.NewPCG(85, 86))
	ap, cp := nets.NewParams(a.ActorSpecs(), tensor.Float64, rng), nets.NewParams(a.CriticSpecs(), tensor.Float64, rng)
	x := tensor.New(tensor.WithShape(b, 2*n, n), tensor.Of(tensor.Float64))
	g1s, g2s := make([][][]int8, b), make([][][]int8, b)
	for s := range b {
		g1s[s], g2s[s], _ = gm.Generate(rng, gm.Params{N: n, Graph: gm.Regular, D: 4})
		for i := range n {
			for j := range n {
				x.Float64s()[(s*2*n+i)*n+j] = float64(g1s[s][i][j])
				x.Float64s()[(s*2*n+n+i)*n+j] = float64(g2s[s][i][j])
			}
		}
	}
	m, _ := runGM(t, a, ap, cp, x, tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64)))
	m32 := make([]float32, len(m))
	for i, v := range m {
		m32[i] = float32(v)
	}
	rows := make([]int, b*n)
	if err := assign.RoundBatch(m32, b, n, rows); err != nil {
		t.Fatal(err)
	}
	corr := make([]int, n)
	for s := range b {
		perm.Invert(corr, rows[s*n:(s+1)*n]) // row = G2 node, column = G1 node
		if obj := gm.Objective(g1s[s], g2s[s], corr); obj < 0.9 {
			t.Errorf("graph %d: the untrained actor keeps %.3f of the edges, want at least 0.9", s, obj)
		}
	}
}

package agent

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/envs"
	"spg-tui/run"
)

// factoredArch is SPG+Factored for task at the gradient checks' toy sizes.
func factoredArch(t *testing.T, task envs.Task) arch {
	t.Helper()
	a, err := newArch(run.ModelFactored, task, checkN, checkH)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// SPG+Factored's critic loss (penalty off and on) and its actor loss through the critic, for
// sort and tsp (the tour critic's A S A^T), against central differences in float64.
func TestFactoredGradients(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskSort, envs.TaskTSP} {
		a := factoredArch(t, task)
		rng := rand.New(rand.NewPCG(71, uint64(len(task))))
		ap, cp := randParams(a.actorSpecs(), rng), randParams(a.criticSpecs(), rng)
		tb := newToyBatch(a, task, checkB, checkN, rng)
		for _, w := range []float64{0, 1} {
			checkCriticLoss(t, a, cp, tb, w)
		}
		t.Logf("%s: %d actor tensors checked", task, checkActorLoss(t, a, ap, cp, tb, 1e-5))
	}
}

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
	qs, err := tourQ(constant(g, gv, "g"), []*G.Node{constant(g, av, "a"), constant(g, uv, "u")}, n)
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

// Relabelling the items (values, cities) of a state permutes the rows of SPG+Factored's M the
// same way: the actor is permutation-equivariant in the items.
func TestFactoredIsEquivariant(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskSort, envs.TaskTSP} {
		const n, b = 6, 3
		cfg := run.DefaultConfig(task, n)
		cfg.Model, cfg.Critic, cfg.Hidden = run.ModelFactored, run.CriticBilinear, 8
		l, err := NewLearner(cfg)
		if err != nil {
			t.Fatal(err)
		}
		h := Hyper{Tau: 1, SinkhornIters: 10}
		rng := rand.New(rand.NewPCG(73, 1))
		w := StateLen(task, n) / n
		states := make([]float32, b*n*w)
		for s := range b {
			for i, v := range rng.Perm(n) {
				states[s*n+i] = float32(v)
			}
		}
		if task == envs.TaskTSP {
			for i := range states {
				states[i] = rng.Float32()
			}
		}
		m := make([]float32, b*n*n)
		if err := l.Act(states, b, h, m); err != nil {
			t.Fatal(err)
		}
		rows := rng.Perm(n) // new item i is old item rows[i]
		moved := make([]float32, len(states))
		for s := range b {
			for i := range n {
				copy(moved[(s*n+i)*w:][:w], states[(s*n+rows[i])*w:][:w])
			}
		}
		mm := make([]float32, b*n*n)
		if err := l.Act(moved, b, h, mm); err != nil {
			t.Fatal(err)
		}
		for s := range b {
			for i := range n {
				for j := range n {
					got, want := mm[(s*n+i)*n+j], m[(s*n+rows[i])*n+j]
					if math.Abs(float64(got-want)) > 1e-5 {
						t.Fatalf("%s: state %d, M'[%d][%d] = %g, want M[%d][%d] = %g", task, s, i, j, got, rows[i], j, want)
					}
				}
			}
		}
	}
}

package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/linalg/pairs"
	"spg-tui/run"
)

// The critic loss (penalty off and on) and the actor loss through the critic of the successor
// models, the barred diagonal (and SPG+Successor-Graph's messages) included, against central
// differences in float64.
func TestSuccessorGradients(t *testing.T) {
	for _, model := range []string{run.ModelSuccessor, run.ModelSuccessorLocal, run.ModelSuccessorGraph} {
		t.Run(model, func(t *testing.T) {
			a := testArch(t, model, envs.TaskTSP, checkN, checkH)
			rng := rand.New(rand.NewPCG(75, 76))
			ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
			tb := newToyBatch(a, envs.TaskTSP, checkB, checkN, rng)
			for _, w := range []float64{0, 1} {
				checkCriticLoss(t, a, cp, tb, w)
			}
			t.Logf("%d actor tensors checked", checkActorLoss(t, a, ap, cp, tb, 1e-5))
		})
	}
}

// Relabelling the cities permutes the rows and the columns of a successor model's M the same way
// (the score of "j follows i" moves with both cities), and M puts no mass on a self-loop, nor,
// for SPG+Successor-Local and -Graph at N = 14 (above their candidates' 6), on a pair of far cities.
func TestSuccessorIsEquivariant(t *testing.T) {
	for _, c := range []struct {
		model string
		n     int
	}{{run.ModelSuccessor, 6}, {run.ModelSuccessorLocal, 6}, {run.ModelSuccessorLocal, 14}, {run.ModelSuccessorGraph, 14}} {
		t.Run(fmt.Sprintf("%s/n=%d", c.model, c.n), func(t *testing.T) { checkSuccessorEquivariant(t, c.model, c.n) })
	}
}

func checkSuccessorEquivariant(t *testing.T, model string, n int) {
	const b = 3
	cfg, err := run.WithRecipe(run.DefaultConfig(envs.TaskTSP, n), run.RecipeBest)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Model = model
	l, err := NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := Hyper{Tau: 0.05, SinkhornIters: 10}
	rng := rand.New(rand.NewPCG(77, 78))
	states := make([]float32, b*n*2)
	for i := range states {
		states[i] = rng.Float32()
	}
	m := make([]float32, b*n*n)
	if err := l.Act(states, b, h, m); err != nil {
		t.Fatal(err)
	}
	rows := rng.Perm(n) // new city i is old city rows[i]
	moved := make([]float32, len(states))
	for s := range b {
		for i := range n {
			copy(moved[(s*n+i)*2:][:2], states[(s*n+rows[i])*2:][:2])
		}
	}
	mm := make([]float32, b*n*n)
	if err := l.Act(moved, b, h, mm); err != nil {
		t.Fatal(err)
	}
	local := model == run.ModelSuccessorLocal || model == run.ModelSuccessorGraph
	far := make([]float32, b*n*n*pairs.TourLocalWidth)
	pairs.TourLocal(far, states, b, n)
	var barred int
	for s := range b {
		for i := range n {
			if d := m[(s*n+i)*n+i]; d != 0 {
				t.Fatalf("state %d: M[%d][%d] = %g on a self-loop", s, i, i, d)
			}
			for j := range n {
				f := far[((s*n+i)*n+j)*pairs.TourLocalWidth:]
				if local && f[pairs.LocalRankFrom] == 1 && f[pairs.LocalRankTo] == 1 {
					barred++
					if d := m[(s*n+i)*n+j]; d != 0 {
						t.Fatalf("state %d: M[%d][%d] = %g on a pair of far cities", s, i, j, d)
					}
				}
			}
			for j := range n {
				got, want := mm[(s*n+i)*n+j], m[(s*n+rows[i])*n+rows[j]]
				if math.Abs(float64(got-want)) > 1e-5 {
					t.Fatalf("state %d, M'[%d][%d] = %g, want M[%d][%d] = %g", s, i, j, got, rows[i], rows[j], want)
				}
			}
		}
	}
	if (barred > 0) != (local && n > pairs.LocalRankCap+1) {
		t.Errorf("%d pairs of far cities at n = %d", barred, n)
	}
}

// A successor action's cycle cover becomes one tour, the cover patched: perm visits the cities in
// the order of tsp.PatchSuccessor's tour and rowToCol, the action the critic learns from, is
// left as it was. Other models' actions are inverted as before.
func TestActionDecoder(t *testing.T) {
	const n = 9
	env, err := envs.New(envs.TaskTSP, n)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(79, 80))
	var dec ActionDecoder
	for trial := range 50 {
		inst := env.Generate(uint64(trial), 0)
		rowToCol := rng.Perm(n)
		old := slices.Clone(rowToCol)
		perm := make([]int, n)
		dec.SetInstance(Hyper{}, inst)
		dec.ToPerm(Hyper{}, rowToCol, perm)
		want := make([]int, n)
		nets.ActionToPerm(old, want)
		if !slices.Equal(perm, want) || !slices.Equal(rowToCol, old) {
			t.Fatalf("trial %d: places action %v gave %v, want its inverse %v", trial, old, perm, want)
		}
		h := Hyper{Successor: true}
		dec.SetInstance(h, inst)
		dec.ToPerm(h, rowToCol, perm)
		if !slices.Equal(rowToCol, old) {
			t.Fatalf("trial %d: the cover %v was changed to %v", trial, old, rowToCol)
		}
		d := make([]float64, n*n)
		envs.DistanceMatrix(d, inst.Points, inst.Points)
		succ, tour := slices.Clone(old), make([]int, n)
		tsp.PatchSuccessor(d, n, succ, tour)
		if !slices.Equal(perm, tour) {
			t.Fatalf("trial %d: cover %v decoded to %v, patched it is %v", trial, old, perm, tour)
		}
		if !slices.Equal(slices.Sorted(slices.Values(perm)), slices.Sorted(slices.Values(old))) {
			t.Fatalf("trial %d: %v is not a tour", trial, perm)
		}
	}
}

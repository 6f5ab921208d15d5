package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestPairwiseIsEquivariant checks what makes SPG+Pairwise the "best" recipe's actor: relabelling
// the points of B permutes the rows of M and relabelling the points of A its columns (mwm), and
// relabelling the items permutes the rows (sort), where the paper's GRU actor reads its rows in
// order and is not equivariant.
func TestPairwiseIsEquivariant(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskSort} {
		const n, b = 5, 3
		cfg, err := run.WithRecipe(run.DefaultConfig(task, n), run.RecipeBest)
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		h := Hyper{Tau: 1, SinkhornIters: 10}
		rng := rand.New(rand.NewPCG(5, 6))
		states := make([]float32, b*envs.MustFacts(task).StateLen(n))
		for i := range states {
			states[i] = float32(rng.Float64())
		}
		if task == envs.TaskSort {
			for s := range b {
				for i, v := range rng.Perm(n) {
					states[s*n+i] = float32(v)
				}
			}
		}
		m := make([]float32, b*n*n)
		if err := l.Act(states, b, h, m); err != nil {
			t.Fatal(err)
		}
		rows, cols := rng.Perm(n), rng.Perm(n) // new row i is old row rows[i]
		moved := make([]float32, len(states))
		for s := range b {
			if task == envs.TaskMWM {
				st, dst := states[s*4*n:][:4*n], moved[s*4*n:][:4*n]
				for i := range n {
					copy(dst[2*i:2*i+2], st[2*cols[i]:2*cols[i]+2])                 // A: the columns
					copy(dst[2*n+2*i:2*n+2*i+2], st[2*n+2*rows[i]:2*n+2*rows[i]+2]) // B: the rows
				}
			} else {
				for i := range n {
					moved[s*n+i] = states[s*n+rows[i]]
				}
			}
		}
		mm := make([]float32, b*n*n)
		if err := l.Act(moved, b, h, mm); err != nil {
			t.Fatal(err)
		}
		for s := range b {
			for i := range n {
				for j := range n {
					oj := j
					if task == envs.TaskMWM {
						oj = cols[j]
					}
					got, want := mm[(s*n+i)*n+j], m[(s*n+rows[i])*n+oj]
					if math.Abs(float64(got-want)) > 1e-5 {
						t.Fatalf("%s: state %d, M'[%d][%d] = %g, want M[%d][%d] = %g", task, s, i, j, got, rows[i], oj, want)
					}
				}
			}
		}
	}
}

package sort

import (
	"math"
	"slices"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
	"spg-tui/linalg/perm"
)

// naiveTauB is Kendall's tau-b of xs against ys, counting every pair:
// (concordant - discordant) / sqrt((pairs - ties in xs) * (pairs - ties in ys)).
func naiveTauB(xs, ys []float64) float64 {
	n := len(xs)
	var con, dis, tx, ty float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := (xs[i] - xs[j]) * (ys[i] - ys[j])
			switch {
			case s > 0:
				con++
			case s < 0:
				dis++
			}
			if xs[i] == xs[j] {
				tx++
			}
			if ys[i] == ys[j] {
				ty++
			}
		}
	}
	pairs := float64(n * (n - 1) / 2)
	return (con - dis) / math.Sqrt((pairs-tx)*(pairs-ty))
}

func TestSortObjective(t *testing.T) {
	rng := envstest.RNG(40)
	for _, n := range []int{2, 3, 7, 20} {
		env := newSort(n)
		inst := env.Generate(5, n)
		exact, err := env.Solve("exact", inst, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := env.Objective(inst, exact); got != 1 {
			t.Errorf("n=%d: sorted output scores %v, want 1", n, got)
		}
		rev := make([]int, n)
		for i, j := range exact {
			rev[n-1-i] = j
		}
		if got := env.Reward(inst, rev); got != -1 {
			t.Errorf("n=%d: reversed output scores %v, want -1", n, got)
		}
		// Random outputs, with and without ties among the values.
		tied := envs.Instance{Values: make([]float64, n)}
		for i := range tied.Values {
			tied.Values[i] = float64(rng.IntN(3))
		}
		for _, in := range []envs.Instance{inst, tied} {
			for trial := 0; trial < 5; trial++ {
				p := rng.Perm(n)
				out := make([]float64, n)
				perm.Apply(out, in.Values, p)
				asc := slices.Sorted(slices.Values(out))
				got := env.Objective(in, p)
				if want := naiveTauB(out, asc); !math.IsNaN(want) && !envstest.Near(got, want) {
					t.Errorf("n=%d: objective %v, naive tau-b %v (values %v)", n, got, want, out)
				}
				if want := kendallTau(out, asc); !math.IsNaN(want) && !envstest.Near(got, want) {
					t.Errorf("n=%d: objective %v, kendallTau %v", n, got, want)
				}
				if slices.Equal(in.Values, inst.Values) { // distinct values: same as against positions
					pos := make([]float64, n)
					for i := range pos {
						pos[i] = float64(i)
					}
					if want := naiveTauB(out, pos); !envstest.Near(got, want) {
						t.Errorf("n=%d: objective %v, tau-b against positions %v", n, got, want)
					}
				}
			}
		}
	}
}

func TestSortObjectiveTiedAndTiny(t *testing.T) {
	// A constant sequence and a single value are sorted whatever the order.
	flat := envs.Instance{Values: []float64{2, 2, 2, 2}}
	if got := newSort(4).Objective(flat, []int{3, 1, 0, 2}); got != 1 {
		t.Errorf("all tied: %v, want 1", got)
	}
	// With some ties, sorted and reversed outputs still score exactly 1 and -1.
	tied := envs.Instance{Values: []float64{1, 0, 1, 2, 0}}
	env := newSort(5)
	if got := env.Objective(tied, []int{1, 4, 0, 2, 3}); got != 1 {
		t.Errorf("sorted with ties: %v, want 1", got)
	}
	if got := env.Objective(tied, []int{3, 2, 0, 4, 1}); got != -1 {
		t.Errorf("reversed with ties: %v, want -1", got)
	}
	if got := newSort(1).Objective(envs.Instance{Values: []float64{7}}, []int{0}); got != 1 {
		t.Errorf("n=1: %v, want 1", got)
	}
}

func TestSortExactStable(t *testing.T) {
	env := newSort(6)
	inst := envs.Instance{Values: []float64{3, 1, 3, 0, 1, 3}}
	p, err := env.Solve("exact", inst, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{3, 1, 4, 0, 2, 5}
	for i := range want {
		if p[i] != want[i] {
			t.Fatalf("argsort %v, want %v", p, want)
		}
	}
}

func TestSortGenerate(t *testing.T) {
	env := newSort(9)
	for i := range 20 {
		vals := env.Generate(3, i).Values
		p := make([]int, len(vals))
		for k, v := range vals {
			p[k] = int(v)
			if float64(p[k]) != v {
				t.Fatalf("value %v is not an integer", v)
			}
		}
		envstest.MustPerm(t, p, 9, "sort values")
	}
}

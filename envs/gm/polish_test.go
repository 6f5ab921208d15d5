package gm

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestGMPolish: gm's polish, as its facts give it, never loses edges, improves a poor start,
// leaves a 2-swap optimum alone, and refuses an unknown search or a start that is not a
// permutation.
func TestGMPolish(t *testing.T) {
	f := envs.MustFacts(envs.TaskGM)
	if !slices.Equal(f.Polishes, []string{"2swap"}) {
		t.Fatalf("gm's polishes %v, want [2swap]", f.Polishes)
	}
	e := &gmEnv{n: 12, data: Params{N: 12, Graph: ErdosRenyi, P: 0.3, Noise: 0.05, Model: Nowak}}
	improved := 0
	for i := range 20 {
		inst := e.Generate(7, i)
		start := randomStart(t, 12, uint64(i))
		got, err := f.Polish("2swap", inst, start)
		if err != nil {
			t.Fatal(err)
		}
		before, after := Objective(inst.G1, inst.G2, start), Objective(inst.G1, inst.G2, got)
		if after < before {
			t.Fatalf("instance %d: polish lost edges: %v -> %v", i, before, after)
		}
		if after > before {
			improved++
		}
		again, err := f.Polish("2swap", inst, got)
		if err != nil || Objective(inst.G1, inst.G2, again) != after {
			t.Fatalf("instance %d: a second polish moved a 2-swap optimum: %v -> %v, %v", i, after, Objective(inst.G1, inst.G2, again), err)
		}
	}
	if improved == 0 {
		t.Error("the polish improved none of 20 random starts")
	}
	inst := e.Generate(7, 0)
	for _, c := range []struct {
		polish string
		perm   []int
		want   string
	}{
		{"faq", randomStart(t, 12, 1), `polish "faq": must be one of 2swap`},
		{"2swap", []int{0, 1, 2}, "perm has 3 entries, want 12"},
		{"2swap", []int{0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "perm"},
	} {
		if _, err := f.Polish(c.polish, inst, c.perm); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Polish(%q, %v): %v, want an error with %q", c.polish, c.perm, err, c.want)
		}
	}
}

// randomStart is a random permutation of n drawn with seed.
func randomStart(t *testing.T, n int, seed uint64) []int {
	t.Helper()
	return rand.New(rand.NewPCG(seed, 1)).Perm(n)
}

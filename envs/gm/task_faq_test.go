package gm

import (
	"math"
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
)

// TestGMFAQAgainstBruteForce checks FAQ, a heuristic, on tiny instances against the exact solver:
// never better than the optimum, a permutation whose objective is the edges it keeps, and the
// optimum itself on easy planted instances: noiseless graphs, with 9 restarts (from the
// barycentre alone FAQ misses a third of them; scipy's does the same, tools/check_faq.py).
func TestGMFAQAgainstBruteForce(t *testing.T) {
	env := &gmEnv{n: 7}
	rng := envstest.RNG(35)
	for k := range 60 {
		n := 3 + k%5
		p := Params{N: n, Graph: ErdosRenyi, P: 0.3 + 0.1*float64(k%4), Noise: 0.15, Model: Nowak}
		if k%3 == 2 {
			p = Params{N: 6, Graph: Regular, D: 2 + k%2, Noise: 0.2}
		}
		g1, g2, _ := Generate(rng, p)
		opt := exactPreserved(t, g1, g2)
		for _, restarts := range []int{0, 3} {
			perm, err := FAQ(g1, g2, restarts, envstest.RNG(uint64(k)))
			if err != nil {
				t.Fatal(err)
			}
			if err := envs.CheckPermutation("faq", perm, len(g1)); err != nil {
				t.Fatalf("case %d: %v", k, err)
			}
			got := Preserved(g1, g2, perm)
			if got > opt {
				t.Fatalf("case %d %+v restarts %d: faq keeps %d edges, more than the optimum %d", k, p, restarts, got, opt)
			}
			env.n = len(g1)
			inst := envs.Instance{G1: g1, G2: g2}
			sols, err := envs.SolveAllRestarts(env, "faq", []envs.Instance{inst}, uint64(k), restarts)
			if err != nil {
				t.Fatal(err)
			}
			if m := Edges(g1); m > 0 && sols[0].Objective != float64(Preserved(g1, g2, sols[0].Perm))/float64(m) {
				t.Fatalf("case %d: solve claims objective %v for a perm keeping %d of %d edges", k, sols[0].Objective, Preserved(g1, g2, sols[0].Perm), m)
			}
		}
	}
	for k := range 20 {
		g1, g2, planted := Generate(envstest.RNG(uint64(500+k)), Params{N: 7, Graph: ErdosRenyi, P: 0.5})
		perm, err := FAQ(g1, g2, 9, envstest.RNG(uint64(k)))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Preserved(g1, g2, perm), Preserved(g1, g2, planted); got != want || want != exactPreserved(t, g1, g2) {
			t.Errorf("noiseless instance %d: faq keeps %d edges, the planted correspondence %d", k, got, want)
		}
	}
}

// TestGMFAQSeeded checks that FAQ's restarts are reproducible from the seed, that they never
// do worse than the barycentre alone (which they include), and that restarts are refused
// where they mean nothing and above envs.MaxRestarts (2^63-1 used to run for ever).
func TestGMFAQSeeded(t *testing.T) {
	env := &gmEnv{n: 20, data: Params{Graph: ErdosRenyi, P: 0.2, Noise: 0.05, Model: Nowak}}
	insts := make([]envs.Instance, 16)
	for i := range insts {
		insts[i] = env.Generate(9, i)
	}
	one, err := envs.SolveAll(env, "faq", insts, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := envs.SolveAllRestarts(env, "faq", insts, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := envs.SolveAllRestarts(env, "faq", insts, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	other, err := envs.SolveAllRestarts(env, "faq", insts, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := range insts {
		if !slices.Equal(a[i].Perm, b[i].Perm) {
			t.Fatalf("instance %d: the same seed gave %v and %v", i, a[i].Perm, b[i].Perm)
		}
		if a[i].Objective < one[i].Objective {
			t.Errorf("instance %d: 4 restarts keep %v, the barycentre alone %v", i, a[i].Objective, one[i].Objective)
		}
		differs = differs || !slices.Equal(a[i].Perm, other[i].Perm)
	}
	if !differs {
		t.Error("seeds 1 and 2 gave the same solutions on all 16 instances: the restarts ignore the seed")
	}
	for _, c := range []struct {
		solver   string
		restarts int
		want     string
	}{
		{"2swap", 1, `solver "2swap" takes no restarts`},
		{"faq", -1, "restarts -1: must be in [0, 100]"},
		{"faq", envs.MaxRestarts + 1, "restarts 101: must be in [0, 100]"},
		{"faq", math.MaxInt, "restarts 9223372036854775807: must be in [0, 100]"},
	} {
		if _, err := envs.SolveAllRestarts(env, c.solver, insts[:1], 1, c.restarts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s --restarts %d: error %v, want %q", c.solver, c.restarts, err, c.want)
		}
	}
	mwm, _ := envs.New(envs.TaskMWM, 5)
	if err := envs.CheckRestarts(mwm, "hungarian", 2); err == nil {
		t.Error("mwm's hungarian took restarts")
	}
}

// exactPreserved is the most edges a correspondence of g2 to g1 keeps: Exact's, which
// envs/gm checks against enumeration.
func exactPreserved(t *testing.T, g1, g2 [][]int8) int {
	t.Helper()
	perm, err := Exact(g1, g2)
	if err != nil {
		t.Fatal(err)
	}
	return Preserved(g1, g2, perm)
}

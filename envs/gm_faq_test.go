package envs

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestFAQMatchesScipy checks faqSolve's barycentre run against scipy's
// quadratic_assignment(method="faq", maximize=True) on the weighted matrices that
// tools/check_faq.py --weighted wrote with scipy's answers: the same permutation and the same
// objective to 1e-9. Weighted matrices have no ties in the Frank-Wolfe subproblems, so the two
// runs take the same vertices and steps wherever the algorithm is the same.
func TestFAQMatchesScipy(t *testing.T) {
	raw, err := os.ReadFile("testdata/faq_scipy.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			A, B  [][]float64
			Perm  []int
			Score float64
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) == 0 {
		t.Fatal("no cases")
	}
	for k, c := range file.Cases {
		n := len(c.A)
		flat := func(m [][]float64) []float64 { return slices.Concat(m...) }
		a, b := flat(c.A), flat(c.B)
		perm, err := faqSolve(a, b, n, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		score := faqScore(a, b, n, perm)
		if !slices.Equal(perm, c.Perm) || math.Abs(score-c.Score) > 1e-9*math.Max(1, c.Score) {
			t.Errorf("case %d (n = %d): perm %v scores %.12g, scipy's %v %.12g", k, n, perm, score, c.Perm, c.Score)
		}
	}
}

// TestGMFAQAgainstBruteForce checks FAQ, a heuristic, on tiny instances against enumeration:
// never better than the optimum, a permutation whose objective is the edges it keeps, and the
// optimum itself on easy planted instances: noiseless graphs, with 9 restarts (from the
// barycentre alone FAQ misses a third of them; scipy's does the same, tools/check_faq.py).
func TestGMFAQAgainstBruteForce(t *testing.T) {
	env := &gmEnv{n: 7}
	rng := testRNG(35)
	for k := range 60 {
		n := 3 + k%5
		p := GMParams{N: n, Graph: GMErdosRenyi, P: 0.3 + 0.1*float64(k%4), Noise: 0.15, Model: GMNowak}
		if k%3 == 2 {
			p = GMParams{N: 6, Graph: GMRegular, D: 2 + k%2, Noise: 0.2}
		}
		g1, g2, _ := GenerateGM(rng, p)
		opt := gmBrute(g1, g2)
		for _, restarts := range []int{0, 3} {
			perm, err := GMFAQ(g1, g2, restarts, testRNG(uint64(k)))
			if err != nil {
				t.Fatal(err)
			}
			if err := checkPermutation("faq", perm, len(g1)); err != nil {
				t.Fatalf("case %d: %v", k, err)
			}
			got := gmPreserved(g1, g2, perm)
			if got > opt {
				t.Fatalf("case %d %+v restarts %d: faq keeps %d edges, more than the optimum %d", k, p, restarts, got, opt)
			}
			env.n = len(g1)
			inst := Instance{G1: g1, G2: g2}
			sols, err := SolveAllRestarts(env, "faq", []Instance{inst}, uint64(k), restarts)
			if err != nil {
				t.Fatal(err)
			}
			if m := gmEdges(g1); m > 0 && sols[0].Objective != float64(gmPreserved(g1, g2, sols[0].Perm))/float64(m) {
				t.Fatalf("case %d: solve claims objective %v for a perm keeping %d of %d edges", k, sols[0].Objective, gmPreserved(g1, g2, sols[0].Perm), m)
			}
		}
	}
	for k := range 20 {
		g1, g2, planted := GenerateGM(testRNG(uint64(500+k)), GMParams{N: 7, Graph: GMErdosRenyi, P: 0.5})
		perm, err := GMFAQ(g1, g2, 9, testRNG(uint64(k)))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := gmPreserved(g1, g2, perm), gmPreserved(g1, g2, planted); got != want || want != gmBrute(g1, g2) {
			t.Errorf("noiseless instance %d: faq keeps %d edges, the planted correspondence %d", k, got, want)
		}
	}
}

// TestGMFAQSeeded checks that FAQ's restarts are reproducible from the seed, that they never
// do worse than the barycentre alone (which they include), and that restarts are refused
// where they mean nothing.
func TestGMFAQSeeded(t *testing.T) {
	env := &gmEnv{n: 20, data: GMParams{Graph: GMErdosRenyi, P: 0.2, Noise: 0.05, Model: GMNowak}}
	insts := make([]Instance, 16)
	for i := range insts {
		insts[i] = env.Generate(9, i)
	}
	one, err := SolveAll(env, "faq", insts, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := SolveAllRestarts(env, "faq", insts, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SolveAllRestarts(env, "faq", insts, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	other, err := SolveAllRestarts(env, "faq", insts, 2, 4)
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
		{"faq", -1, "restarts = -1"},
	} {
		if _, err := SolveAllRestarts(env, c.solver, insts[:1], 1, c.restarts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s --restarts %d: error %v, want %q", c.solver, c.restarts, err, c.want)
		}
	}
	mwm, _ := New(TaskMWM, 5)
	if err := CheckRestarts(mwm, "hungarian", 2); err == nil {
		t.Error("mwm's hungarian took restarts")
	}
}

package gm

import (
	"encoding/json"
	"math"
	"os"
	"slices"
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

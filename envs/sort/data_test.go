package sort

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestSortData checks sort's data specs: the default draws distinct integers from a range ten
// times n (so two seeds' sets are not one multiset), perm and "" both draw today's
// permutations of 0..n-1 (the data of runs that name none), and k sets the range.
func TestSortData(t *testing.T) {
	if got := envs.DefaultData(envs.TaskSort); got != "range:k=10" {
		t.Fatalf("sort's default data %q, want range:k=10", got)
	}
	const n = 20
	def, err := envs.NewData(envs.TaskSort, n, envs.DefaultData(envs.TaskSort))
	if err != nil {
		t.Fatal(err)
	}
	wide := false
	for i := range 50 {
		vals := def.Generate(4, i).Values
		seen := map[float64]bool{}
		for _, v := range vals {
			if v != float64(int(v)) || v < 0 || v >= 10*n || seen[v] {
				t.Fatalf("instance %d: %v is not n distinct integers in [0, %d)", i, vals, 10*n)
			}
			seen[v] = true
			wide = wide || v >= n
		}
		if !slices.Equal(vals, def.Generate(4, i).Values) {
			t.Fatalf("instance %d differs between two draws of the same seed", i)
		}
	}
	if !wide {
		t.Error("50 instances of range:k=10 never left 0..n-1")
	}
	a, b := sortedValues(def.Generate(1, 0)), sortedValues(def.Generate(2, 0))
	if slices.Equal(a, b) {
		t.Error("two seeds' first instances are the same multiset")
	}
	legacy, err := envs.NewData(envs.TaskSort, n, "")
	if err != nil {
		t.Fatal(err)
	}
	perm, err := envs.NewData(envs.TaskSort, n, "perm")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		old := legacy.Generate(4, i).Values
		if !slices.Equal(old, perm.Generate(4, i).Values) {
			t.Fatalf("instance %d: perm and \"\" differ", i)
		}
		want := make([]float64, n)
		for k, v := range envs.InstanceRNG(4, i).Perm(n) {
			want[k] = float64(v)
		}
		if !slices.Equal(old, want) {
			t.Fatalf("instance %d: \"\" gives %v, want the earlier generator's %v", i, old, want)
		}
	}
	one, err := envs.NewData(envs.TaskSort, n, "range:k=1")
	if err != nil {
		t.Fatal(err)
	}
	if got := sortedValues(one.Generate(4, 0)); !slices.Equal(got, sortedValues(legacy.Generate(4, 0))) {
		t.Errorf("range:k=1 draws %v, want the integers 0..n-1", got)
	}
}

func sortedValues(inst envs.Instance) []float64 {
	v := slices.Clone(inst.Values)
	slices.Sort(v)
	return v
}

// TestDistinctIntsUniform checks that the partial shuffle draws every ordered pair of distinct
// integers of 0..3 equally often (a chi-square bound far in the tail for 11 degrees of freedom).
func TestDistinctIntsUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const draws = 24000
	counts := map[[2]float64]int{}
	for range draws {
		v := distinctInts(rng, 2, 4)
		counts[[2]float64{v[0], v[1]}]++
	}
	if len(counts) != 12 {
		t.Fatalf("%d distinct ordered pairs, want 12: %v", len(counts), counts)
	}
	chi2, want := 0.0, float64(draws)/12
	for _, c := range counts {
		chi2 += (float64(c) - want) * (float64(c) - want) / want
	}
	if chi2 > 40 {
		t.Errorf("chi-square %.1f over 12 ordered pairs: not uniform (%v)", chi2, counts)
	}
}

// TestSortDataRefusesBadSpecs checks that each bad sort data spec is refused in one line that
// names what is wrong.
func TestSortDataRefusesBadSpecs(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"ranges", "unknown sort data"},
		{"er:p=0.2", "unknown sort data"},
		{"perm:k=2", "perm takes no settings"},
		{"range:k=0", "integer in [1, 1000]"},
		{"range:k=1001", "integer in [1, 1000]"},
		{"range:k=x", "integer in [1, 1000]"},
		{"range:m=3", "is not k=K"},
		{"range:", "is not k=K"},
		{"range:k=2,k=3", "k given twice"},
	} {
		_, err := envs.NewData(envs.TaskSort, 9, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("sort --data %q: error %v, want one line containing %q", c.spec, err, c.want)
		}
	}
}

package tsp

import (
	"math"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
)

func TestTSPReferenceMeans(t *testing.T) {
	// Reference values from the notes for TSP-20: nearest neighbour 4.50, farthest
	// insertion 3.94, NN + 2-opt 3.95.
	env := newTSP(20)
	const count = 200
	want := map[string]float64{"nn": 4.50, "farthest": 3.94, "2opt": 3.95}
	lengths := map[string][]float64{}
	for i := range count {
		inst := env.Generate(envs.SplitSeed(11, envs.Test), i)
		for name := range want {
			tour, err := env.Solve(name, inst, nil)
			if err != nil {
				t.Fatal(err)
			}
			lengths[name] = append(lengths[name], env.Objective(inst, tour))
		}
	}
	for name, ref := range want {
		envstest.CheckReference(t, name, lengths[name], ref, 0.01)
	}
}

func TestTSPSolverErrors(t *testing.T) {
	env := newTSP(25)
	inst := env.Generate(1, 0)
	if _, err := env.Solve("exact", inst, nil); err == nil || !strings.Contains(err.Error(), "got n = 25") {
		t.Errorf("exact at n = 25: error %v", err)
	}
	_, err := env.Solve("foo", inst, nil)
	want := `unknown solver "foo" for tsp (want exact, nn, farthest, 2opt, 2opt-oropt, 2opt-oropt-all, farthest-2opt-oropt, christofides, ap-patch, random)`
	if err == nil || err.Error() != want {
		t.Errorf("unknown solver: error %v, want %q", err, want)
	}
}

// The all-starts local search is bounded in n, as Held-Karp is.
func TestTSPAllStartsLimit(t *testing.T) {
	if err := envs.CheckSolver(newTSP(maxAllStartsN), "2opt-oropt-all"); err != nil {
		t.Errorf("n = %d: %v", maxAllStartsN, err)
	}
	err := envs.CheckSolver(newTSP(maxAllStartsN+1), "2opt-oropt-all")
	if err == nil || !strings.Contains(err.Error(), "supports n <= 200") || strings.Contains(err.Error(), "\n") {
		t.Errorf("n = %d: error %v, want one line naming the bound", maxAllStartsN+1, err)
	}
}

func TestTSPObjective(t *testing.T) {
	env := newTSP(4)
	inst := envs.Instance{Points: []envs.Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}}
	if got := env.Objective(inst, []int{0, 1, 2, 3}); !envstest.Near(got, 4) {
		t.Errorf("square perimeter %v, want 4", got)
	}
	if got := env.Reward(inst, []int{0, 2, 1, 3}); !envstest.Near(got, -(2 + 2*math.Sqrt2)) {
		t.Errorf("crossed tour reward %v, want %v", got, -(2 + 2*math.Sqrt2))
	}
	one := envs.Instance{Points: []envs.Point{{0.3, 0.4}}}
	if got := newTSP(1).Objective(one, []int{0}); got != 0 {
		t.Errorf("n=1 length %v, want 0", got)
	}
	two := envs.Instance{Points: []envs.Point{{0, 0}, {0.3, 0.4}}}
	if got := newTSP(2).Objective(two, []int{1, 0}); !envstest.Near(got, 1) {
		t.Errorf("n=2 length %v, want 1", got)
	}
	if a := testing.AllocsPerRun(100, func() { env.Objective(inst, []int{0, 1, 2, 3}) }); a != 0 {
		t.Errorf("Objective allocates %v times per call", a)
	}
}

// tsp's facts name no exact solver beyond Held-Karp's reach.
func TestTSPExactReach(t *testing.T) {
	f := envs.MustFacts(envs.TaskTSP)
	if f.Exact(MaxHeldKarp) != "exact" || f.Exact(MaxHeldKarp+1) != "" {
		t.Errorf("exact solver at n = %d and %d: %q and %q", MaxHeldKarp, MaxHeldKarp+1, f.Exact(MaxHeldKarp), f.Exact(MaxHeldKarp+1))
	}
}

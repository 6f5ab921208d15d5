package mwm

import (
	"math"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
	"spg-tui/linalg/perm"
)

// bruteMWM returns the largest total matched distance over all permutations.
func bruteMWM(env envs.Env, inst envs.Instance) float64 {
	best := math.Inf(-1)
	perm.Each(env.N(), func(p []int) { best = max(best, env.Objective(inst, p)) })
	return best
}

func TestMWMHungarianBruteForce(t *testing.T) {
	rng := envstest.RNG(30)
	for _, set := range envstest.PointSets[envs.Point]() {
		for n := 1; n <= 7; n++ {
			env := newMWM(n)
			for trial := 0; trial < 4; trial++ {
				inst := envs.Instance{A: set.Gen(rng, n), B: set.Gen(rng, n)}
				p, err := env.Solve("hungarian", inst, nil)
				if err != nil {
					t.Fatal(err)
				}
				envstest.MustPerm(t, p, n, "hungarian")
				if got, want := env.Objective(inst, p), bruteMWM(env, inst); !envstest.Near(got, want) {
					t.Errorf("%s n=%d: hungarian %v, brute force %v", set.Name, n, got, want)
				}
			}
		}
	}
}

func TestMWMGreedyHalfOptimal(t *testing.T) {
	rng := envstest.RNG(31)
	for _, set := range envstest.PointSets[envs.Point]() {
		for _, n := range []int{1, 2, 5, 12, 30} {
			env := newMWM(n)
			for trial := 0; trial < 5; trial++ {
				inst := envs.Instance{A: set.Gen(rng, n), B: set.Gen(rng, n)}
				g, _ := env.Solve("greedy", inst, nil)
				h, _ := env.Solve("hungarian", inst, nil)
				envstest.MustPerm(t, g, n, "greedy")
				opt := env.Objective(inst, h)
				if got := env.Objective(inst, g); got < 0.5*opt-1e-12 || got > opt+1e-9 {
					t.Errorf("%s n=%d: greedy %v outside [opt/2, opt] with opt %v", set.Name, n, got, opt)
				}
			}
		}
	}
}

func TestMWMReferenceMeans(t *testing.T) {
	// Reference values from the notes for MWM-10: mean optimum 7.19, mean per-instance ratio
	// 0.724 for a random permutation and 0.969 for greedy.
	const n, count = 10, 1000
	env := newMWM(n)
	rng := envstest.RNG(32)
	var opt, random, greedy []float64
	for i := range count {
		inst := env.Generate(envs.SplitSeed(12, envs.Test), i)
		score := func(name string) float64 {
			p, err := env.Solve(name, inst, rng)
			if err != nil {
				t.Fatal(err)
			}
			return env.Objective(inst, p)
		}
		best := score("hungarian")
		opt = append(opt, best)
		random = append(random, score("random")/best)
		greedy = append(greedy, score("greedy")/best)
	}
	envstest.CheckReference(t, "optimum", opt, 7.19, 0.01)
	envstest.CheckReference(t, "random ratio", random, 0.724, 0.001)
	envstest.CheckReference(t, "greedy ratio", greedy, 0.969, 0.001)
}

func TestMWMObjectiveReward(t *testing.T) {
	env := newMWM(2)
	inst := envs.Instance{A: []envs.Point{{0, 0}, {1, 1}}, B: []envs.Point{{0, 1}, {1, 1}}}
	if got := env.Objective(inst, []int{1, 0}); !envstest.Near(got, math.Sqrt2+1) {
		t.Errorf("objective %v, want %v", got, math.Sqrt2+1)
	}
	if got := env.Reward(inst, []int{0, 1}); !envstest.Near(got, 0.5) {
		t.Errorf("reward %v, want mean distance 0.5", got)
	}
	if a := testing.AllocsPerRun(100, func() { env.Objective(inst, []int{1, 0}) }); a != 0 {
		t.Errorf("Objective allocates %v times per call", a)
	}
	_, err := env.Solve("foo", inst, nil)
	want := `unknown solver "foo" for mwm (want hungarian, greedy, random)`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if _, err := env.Solve("random", inst, nil); err == nil || !strings.Contains(err.Error(), "random source") {
		t.Errorf("random without rng: error %v", err)
	}
}

package eval

import (
	"math"
	"path/filepath"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
	"spg-tui/run/stats"
)

// bruteBest is the best objective of inst over all permutations (n <= 7).
func bruteBest(env envs.Env, inst envs.Instance) float64 {
	n := env.N()
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	best := env.Objective(inst, p)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			if v := env.Objective(inst, p); Better(env, v, best) {
				best = v
			}
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	if env.Task() == envs.TaskTSP {
		rec(1) // tours are rotation invariant: fix the first city
	} else {
		rec(0)
	}
	return best
}

func TestReferencesAgainstBruteForce(t *testing.T) {
	var stop atomic.Bool
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP, envs.TaskSort} {
		env, _ := envs.New(task, 6)
		ds := envs.Dataset{Env: env, Seed: 11, Size: 20}
		set := NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task()))
		ref, err := computeReference(env, ds.Seed, set.Insts, true, &stop, new(atomic.Int64))
		if err != nil {
			t.Fatal(err)
		}
		opt := make([]float64, ds.Size)
		for i, inst := range set.Insts {
			opt[i] = bruteBest(env, inst)
			if math.Abs(ref.Best[i].Objective-opt[i]) > 1e-9 || !ref.Exact {
				t.Errorf("%s instance %d: reference %v, brute force %v", task, i, ref.Best[i].Objective, opt[i])
			}
		}
		refs := ref.References
		switch task {
		case envs.TaskMWM:
			if refs["optimal"] != 1 || !(refs["random"] < refs["greedy"] && refs["greedy"] <= 1) {
				t.Errorf("mwm references %v", refs)
			}
		case envs.TaskTSP:
			if math.Abs(refs["optimal"]-stats.Mean(opt)) > 1e-9 || !(refs["2opt"] >= refs["optimal"] && refs["random"] > refs["nn"]) {
				t.Errorf("tsp references %v", refs)
			}
		case envs.TaskSort:
			if refs["optimal"] != 1 || math.Abs(refs["random"]) > 0.3 {
				t.Errorf("sort references %v", refs)
			}
		}

		// The reference solutions score as optimal; the reversed ones do not.
		set.Ref = ref
		n := env.N()
		perms := make([]int, ds.Size*n)
		for i, s := range ref.Best {
			copy(perms[i*n:], s.Perm)
		}
		ev := score(env, set, perms)
		switch task {
		case envs.TaskMWM:
			if math.Abs(ev.Metric-1) > 1e-12 || math.Abs(ev.RatioMedian-1) > 1e-12 || math.Abs(ev.RatioOfMeans-1) > 1e-12 {
				t.Errorf("mwm optimum scored %+v", ev)
			}
		case envs.TaskTSP:
			if ev.Gap == nil || *ev.Gap != 0 || math.Abs(ev.Metric-stats.Mean(opt)) > 1e-12 || ev.MetricName != "tour_length" {
				t.Errorf("tsp optimum scored %+v", ev)
			}
		case envs.TaskSort:
			if ev.Metric != 1 || ev.EvalReward != 1 {
				t.Errorf("sort optimum scored %+v", ev)
			}
		}
	}

	// Beyond Held-Karp: no optimum, the best classical tour as the sample reference.
	env, _ := envs.New(envs.TaskTSP, 22)
	ds := envs.Dataset{Env: env, Seed: 3, Size: 4}
	set := NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task()))
	ref, err := computeReference(env, ds.Seed, set.Insts, true, &stop, new(atomic.Int64))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ref.References["optimal"]; ok || ref.Exact {
		t.Errorf("tsp-22 references %v claim an optimum", ref.References)
	}
	for i, s := range ref.Best {
		if ref.BestSolver[i] == "random" || ref.BestSolver[i] == "" || s.Objective > ref.References["2opt"]*2 {
			t.Errorf("tsp-22 instance %d: best %v by %q", i, s.Objective, ref.BestSolver[i])
		}
	}
	stop.Store(true)
	if _, err := computeReference(env, ds.Seed, set.Insts, true, &stop, new(atomic.Int64)); err != ErrStopped {
		t.Errorf("a stopped computation returned %v", err)
	}
}

func TestReferenceCache(t *testing.T) {
	var stop atomic.Bool
	env, _ := envs.New(envs.TaskMWM, 5)
	ds := envs.Dataset{Env: env, Seed: 5, Size: 10}
	set := NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task()))
	path := filepath.Join(t.TempDir(), "cache", "val.json")
	a, err := LoadReference(path, env, ds, set.Insts, true, &stop)
	if err != nil {
		t.Fatal(err)
	}
	// A stopped computation can only be avoided by reading the cache.
	stop.Store(true)
	b, err := LoadReference(path, env, ds, set.Insts, true, &stop)
	if err != nil || b.References["greedy"] != a.References["greedy"] {
		t.Errorf("cached reference: %v, %v", b, err)
	}
	other := ds
	other.Seed = 6
	if _, err := LoadReference(path, env, other, NewSet(envs.Validation, other, envs.MustFacts(other.Env.Task())).Insts, true, &stop); err != ErrStopped {
		t.Errorf("a cache of another dataset was used: %v", err)
	}
}

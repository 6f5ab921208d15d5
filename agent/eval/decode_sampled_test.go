package eval

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// samplingPolicy is an untrained policy of model on task at size n, with the dataset it is
// scored on.
func samplingPolicy(t *testing.T, task envs.Task, n int, recipe string) (*Policy, envs.Env, []envs.Instance) {
	t.Helper()
	cfg, err := run.WithRecipe(run.DefaultConfig(task, n), recipe)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Batch = 16
	l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	env, err := envs.New(task, n)
	if err != nil {
		t.Fatal(err)
	}
	ds := envs.Dataset{Env: env, Seed: 5, Size: 40}
	insts := make([]envs.Instance, ds.Size)
	for i := range insts {
		insts[i] = ds.At(i)
	}
	return &Policy{cfg: *devtest.Spec(t, cfg), learner: l}, env, insts
}

// TestSampledDecodeOfOneIsTheSingleDecode checks that the sampled path with one candidate and no
// augmentation gives the single decode's permutations exactly, for the SPG models of each task.
func TestSampledDecodeOfOneIsTheSingleDecode(t *testing.T) {
	for _, c := range []struct {
		task   envs.Task
		recipe string
	}{{envs.TaskMWM, run.RecipePaper}, {envs.TaskMWM, run.RecipeBest}, {envs.TaskTSP, run.RecipeBest}, {envs.TaskSort, run.RecipeBest}} {
		pol, env, insts := samplingPolicy(t, c.task, 7, c.recipe)
		single, err := pol.Solve(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		n := env.N()
		perms := make([]int, len(insts)*n)
		if err := actSampled(pol.learner, pol.cfg.Facts, env, insts, learn.HyperAt(&pol.cfg, 0), SingleDecode, perms); err != nil {
			t.Fatal(err)
		}
		for i, s := range single {
			if !slices.Equal(s.Perm, perms[i*n:(i+1)*n]) {
				t.Fatalf("%s %s instance %d: sampled path with K = 1 gives %v, single decode %v", c.task, c.recipe, i, perms[i*n:(i+1)*n], s.Perm)
			}
		}
	}
}

// TestSampledDecodeIsSeededAndNeverWorse checks that sampling with augmentation is
// deterministic for a seed whatever the number of cores, differs between seeds somewhere, and
// never scores below the single decode on any instance.
func TestSampledDecodeIsSeededAndNeverWorse(t *testing.T) {
	pol, env, insts := samplingPolicy(t, envs.TaskTSP, 8, run.RecipeBest)
	dec := run.Decoding{Samples: 6, GumbelScale: SuccessorGumbelScale, Noise: run.NoiseRelative, Augment: true, Seed: 3}
	single, err := pol.Solve(env, insts)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pol.SolveWith(env, insts, dec)
	if err != nil {
		t.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(1)
	b, err := pol.SolveWith(env, insts, dec)
	runtime.GOMAXPROCS(procs)
	if err != nil {
		t.Fatal(err)
	}
	dec.Seed = 4
	c, err := pol.SolveWith(env, insts, dec)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for i := range insts {
		if !slices.Equal(a[i].Perm, b[i].Perm) {
			t.Fatalf("instance %d: the same seed gave %v on all cores and %v on one", i, a[i].Perm, b[i].Perm)
		}
		if a[i].Objective > single[i].Objective {
			t.Fatalf("instance %d: sampled tour %v longer than the single decode's %v", i, a[i].Objective, single[i].Objective)
		}
		differs = differs || !slices.Equal(a[i].Perm, c[i].Perm)
	}
	if !differs {
		t.Error("seeds 3 and 4 gave the same permutations on all 40 instances: the noise does nothing")
	}
}

// TestSampledDecodeNeedsScores checks that a critic-free policy refuses sampling in one line.
func TestSampledDecodeNeedsScores(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskTSP, 6)
	cfg.Model = "pn-ac"
	l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := envs.New(envs.TaskTSP, 6)
	insts := []envs.Instance{envs.Dataset{Env: env, Seed: 1, Size: 1}.At(0)}
	err = actSampled(l, envs.MustFacts(env.Task()), env, insts, learn.HyperAt(devtest.Spec(t, cfg), 0), run.Decoding{Samples: 4, GumbelScale: 1, Noise: run.NoiseRelative, Seed: 1}, make([]int, 6))
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("pn-ac sampled: error %v, want a one-line refusal", err)
	}
}

// TestGumbelMoments checks the Gumbel(0, 1) draws' mean (the Euler-Mascheroni constant) and
// variance (pi^2/6).
func TestGumbelMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const k = 200000
	var sum, sq float64
	for range k {
		g := gumbel(rng)
		sum += g
		sq += g * g
	}
	mean := sum / k
	variance := sq/k - mean*mean
	if math.Abs(mean-0.5772156649) > 0.01 || math.Abs(variance-math.Pi*math.Pi/6) > 0.03 {
		t.Errorf("Gumbel draws: mean %.4f (want 0.5772), variance %.4f (want %.4f)", mean, variance, math.Pi*math.Pi/6)
	}
}

// The default noise is the model's: spg-successor-local's grows as N^2 in relative units, the
// other successor model's and the rest are fixed.
func TestDefaultGumbelScaleOf(t *testing.T) {
	for _, c := range []struct {
		model string
		n     int
		want  float64
	}{
		{run.ModelSuccessorLocal, 20, 80}, {run.ModelSuccessorLocal, 100, 2000},
		{run.ModelSuccessor, 20, SuccessorGumbelScale}, {run.ModelSuccessor, 100, SuccessorGumbelScale},
		{run.ModelMatching, 20, DefaultGumbelScale},
	} {
		m, err := run.ModelNamed(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if got := DefaultGumbelScaleOf(m, c.n); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s at N = %d: default gumbel-scale %g, want %g", c.model, c.n, got, c.want)
		}
	}
}

package experiments

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// tinyConfig is a configuration small enough for tests, of 200 steps.
func tinyConfig(task envs.Task, n int) run.Config { return enginetest.TinyConfig(task, n, 200) }

func TestBuiltin(t *testing.T) {
	want := map[string][]string{
		"critic-penalty": {"penalty on", "penalty off"},
		"tau":            {"tau=1", "tau=0.5", "tau=0.1", "tau=0.05", "tau=0.01"},
		"exploration":    {"eps 1, decay 0.95", "eps 1, decay 0.90", "no exploration"},
	}
	all := Builtin()
	if len(all) != len(want) {
		t.Fatalf("%d built-in ablations, want %d", len(all), len(want))
	}
	for _, a := range all {
		names := want[a.Name]
		if len(a.Variants) != len(names) {
			t.Fatalf("%s: %d variants, want %d", a.Name, len(a.Variants), len(names))
		}
		for i, v := range a.Variants {
			if v.Name != names[i] {
				t.Errorf("%s variant %d = %q, want %q", a.Name, i, v.Name, names[i])
			}
		}
	}
	base := tinyConfig(envs.TaskMWM, 10)
	apply := func(abl string, i int) run.Config {
		a, ok := Lookup(abl)
		if !ok {
			t.Fatalf("Lookup(%q) failed", abl)
		}
		c := base
		a.Variants[i].Apply(&c)
		return c
	}
	if c := apply("critic-penalty", 1); c.CriticPenalty {
		t.Error("penalty off leaves the penalty on")
	}
	if c := apply("tau", 3); c.Tau != 0.05 {
		t.Errorf("tau=0.05 sets tau %g", c.Tau)
	}
	if c := apply("exploration", 1); !c.Exploration || c.EpsStart != 1 || math.Abs(c.EpsDecay-0.10) > 1e-15 {
		t.Errorf("decay 0.90 gives exploration %v, eps %g, decay %g", c.Exploration, c.EpsStart, c.EpsDecay)
	}
	if c := apply("exploration", 2); c.Exploration {
		t.Error("no exploration leaves exploration on")
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup found an unknown ablation")
	}
}

func TestPlanRuns(t *testing.T) {
	a, _ := Lookup("tau")
	p := Plan{Base: tinyConfig(envs.TaskMWM, 5), Ablation: a, Steps: 300, Seeds: 3, EvalEvery: 30, Dir: "out"}
	runs, err := p.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 15 {
		t.Fatalf("%d runs, want 15", len(runs))
	}
	dirs := map[string]bool{}
	for i, r := range runs {
		if r.Variant != i/3 || r.Seed != p.Base.Seed+uint64(i%3) || r.Config.Seed != r.Seed {
			t.Errorf("run %d: variant %d seed %d", i, r.Variant, r.Seed)
		}
		if r.Config.Steps != 300 || r.Config.EvalEvery != 30 {
			t.Errorf("run %d: steps %d eval every %d", i, r.Config.Steps, r.Config.EvalEvery)
		}
		dirs[r.Dir] = true
	}
	if len(dirs) != 15 {
		t.Errorf("%d distinct directories, want 15", len(dirs))
	}
	if got, want := runs[4].Dir, filepath.Join("out", "tau-0.5", "seed-2"); got != want {
		t.Errorf("dir %q, want %q", got, want)
	}
	bad := p
	bad.Ablation = Ablation{Name: "x", Variants: []Variant{{Name: "zero", Apply: func(c *run.Config) { c.Tau = 0 }}}}
	if _, err := bad.Runs(); err == nil {
		t.Error("a variant with tau = 0 was accepted")
	}
	for _, q := range []Plan{{Ablation: a, Steps: 0, Seeds: 1, Dir: "d"}, {Ablation: a, Steps: 1, Seeds: 0, Dir: "d"}, {Ablation: a, Steps: 1, Seeds: run.MaxSeeds + 1, Dir: "d"}, {Ablation: a, Steps: 1, Seeds: 1}} {
		q.Base = p.Base
		if _, err := q.Runs(); err == nil {
			t.Errorf("plan %+v accepted", q)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"eps 1, decay 0.95": "eps-1-decay-0.95", "tau=0.05": "tau-0.05", "Penalty ON": "penalty-on"} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// counting wraps enginetest.Start and records the most runs alive at once. A run counts from its
// start until the runner has read its outcome (Err, once Done is closed): the runner frees the
// run's slot only after that, so the count is exact.
type counting struct {
	live, peak atomic.Int32
}

// countedEngine is a scripted engine that leaves the count when its outcome is read.
type countedEngine struct {
	*enginetest.Engine
	once sync.Once
	c    *counting
}

func (e *countedEngine) Err() error {
	e.once.Do(func() { e.c.live.Add(-1) })
	return e.Engine.Err()
}

func (c *counting) start(cfg run.Config, dir string) (run.Engine, error) {
	e, err := enginetest.New(cfg, dir, enginetest.Options{StepDelay: 100 * time.Microsecond})
	if err != nil {
		return nil, err
	}
	n := c.live.Add(1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	return &countedEngine{Engine: e, c: c}, nil
}

func wait(t *testing.T, r *Runner, d time.Duration) {
	t.Helper()
	select {
	case <-r.Done():
	case <-time.After(d):
		t.Fatal("runner did not finish in time")
	}
}

func TestRunnerAggregates(t *testing.T) {
	a, _ := Lookup("critic-penalty")
	var c counting
	p := Plan{Base: tinyConfig(envs.TaskMWM, 5), Ablation: a, Steps: 200, Seeds: 3, Dir: t.TempDir()}
	r, err := Start(p, c.start)
	if err != nil {
		t.Fatal(err)
	}
	wait(t, r, 20*time.Second)
	if peak := c.peak.Load(); peak > DefaultParallel {
		t.Errorf("%d runs at once, want at most %d", peak, DefaultParallel)
	}
	s := r.Snapshot()
	if s.Finished != 6 || s.Total != 6 || s.MetricName != "optimality_ratio" || !s.Maximize {
		t.Fatalf("snapshot %d/%d finished, metric %q, maximize %v", s.Finished, s.Total, s.MetricName, s.Maximize)
	}
	for _, v := range s.Variants {
		var bests []float64
		for _, run := range v.Runs {
			if run.Phase != Finished || run.Step != 200 {
				t.Fatalf("%s seed %d: phase %v step %d", v.Name, run.Seed, run.Phase, run.Step)
			}
			if len(run.Evals) != 4 {
				t.Fatalf("%s seed %d: %d evaluations, want 4", v.Name, run.Seed, len(run.Evals))
			}
			b := math.Inf(-1)
			for _, e := range run.Evals {
				b = math.Max(b, e.Metric)
			}
			if run.Best != b {
				t.Errorf("best %g, want %g", run.Best, b)
			}
			bests = append(bests, b)
		}
		if len(v.Curve) != 4 {
			t.Fatalf("%s: curve of %d points, want 4", v.Name, len(v.Curve))
		}
		for i, b := range v.Curve {
			var x []float64
			for _, run := range v.Runs {
				x = append(x, run.Evals[i].Metric)
			}
			checkBand(t, b, x)
			if b.Step != 50*(i+1) {
				t.Errorf("band %d at step %d", i, b.Step)
			}
		}
		checkBand(t, v.Best, bests)
	}
	on, off := s.Variants[0].Best.Mean, s.Variants[1].Best.Mean
	if !(on > off) {
		t.Errorf("the scripted penalty-on curve (%g) should beat penalty-off (%g)", on, off)
	}
}

// checkBand compares b with a naive mean and Student t interval of x.
func checkBand(t *testing.T, b Band, x []float64) {
	t.Helper()
	n := float64(len(x))
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / n
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.84) * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	if b.N != len(x) || math.Abs(b.Mean-mean) > 1e-12 || math.Abs(b.Lo-(mean-half)) > 1e-12 || math.Abs(b.Hi-(mean+half)) > 1e-12 {
		t.Errorf("band %+v, want mean %g ± %g over %d", b, mean, half, len(x))
	}
}

func TestRunnerMinimises(t *testing.T) {
	evals := []EvalPoint{{1, 5}, {2, 3}, {3, 4}}
	if b := best(evals, false); b != 3 {
		t.Errorf("best minimised = %g, want 3", b)
	}
	if b := best(evals, true); b != 5 {
		t.Errorf("best maximised = %g, want 5", b)
	}
	if b := best(nil, true); !math.IsNaN(b) {
		t.Errorf("best of nothing = %g, want NaN", b)
	}
	a, _ := Lookup("critic-penalty")
	p := Plan{Base: tinyConfig(envs.TaskTSP, 5), Ablation: a, Steps: 100, Seeds: 1, Dir: t.TempDir()}
	r, err := Start(p, enginetest.Start)
	if err != nil {
		t.Fatal(err)
	}
	wait(t, r, 20*time.Second)
	if s := r.Snapshot(); s.Maximize || s.MetricName != "tour_length" {
		t.Errorf("tsp: maximize %v, metric %q", s.Maximize, s.MetricName)
	}
}

func TestRunnerStop(t *testing.T) {
	a, _ := Lookup("tau")
	var mu sync.Mutex
	started := 0
	slow := func(cfg run.Config, dir string) (run.Engine, error) {
		mu.Lock()
		started++
		mu.Unlock()
		return enginetest.New(cfg, dir, enginetest.Options{StepDelay: time.Millisecond})
	}
	p := Plan{Base: tinyConfig(envs.TaskMWM, 5), Ablation: a, Steps: 1_000_000, Seeds: 2, Dir: t.TempDir()}
	r, err := Start(p, slow)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.Snapshot().Variants[0].Runs[1].Phase != Running && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	r.Stop()
	wait(t, r, 5*time.Second)
	s := r.Snapshot()
	if s.Finished != s.Total {
		t.Errorf("%d of %d runs ended", s.Finished, s.Total)
	}
	counts := map[Phase]int{}
	for _, v := range s.Variants {
		for _, run := range v.Runs {
			counts[run.Phase]++
			if run.Phase == Stopped {
				if _, err := os.Stat(filepath.Join(run.Dir, "checkpoints", "last")); err != nil {
					t.Errorf("stopped run without a checkpoint: %v", err)
				}
			}
		}
	}
	if counts[Stopped] != started || counts[Skipped] != s.Total-started {
		t.Errorf("phases %v after %d starts", counts, started)
	}
}

func TestRunnerStartFailure(t *testing.T) {
	a, _ := Lookup("critic-penalty")
	boom := errors.New("no BLAS")
	p := Plan{Base: tinyConfig(envs.TaskMWM, 5), Ablation: a, Steps: 10, Seeds: 1, Dir: t.TempDir()}
	r, err := Start(p, func(run.Config, string) (run.Engine, error) { return nil, boom })
	if err != nil {
		t.Fatal(err)
	}
	wait(t, r, 5*time.Second)
	for _, v := range r.Snapshot().Variants {
		if run := v.Runs[0]; run.Phase != Failed || !errors.Is(run.Err, boom) {
			t.Errorf("%s: phase %v err %v", v.Name, run.Phase, run.Err)
		}
	}
}

func TestAggregateUneven(t *testing.T) {
	runs := []RunResult{
		{Evals: []EvalPoint{{10, 1}, {20, 2}}},
		{Evals: []EvalPoint{{10, 3}}},
	}
	got := Aggregate(runs)
	if len(got) != 2 || got[0].Step != 10 || got[0].N != 2 || got[0].Mean != 2 || got[1].N != 1 || got[1].Lo != 2 || got[1].Hi != 2 {
		t.Errorf("Aggregate = %+v", got)
	}
}

func TestStartWithoutEngine(t *testing.T) {
	a, _ := Lookup("tau")
	p := Plan{Base: tinyConfig(envs.TaskMWM, 5), Ablation: a, Steps: 10, Seeds: 1, Dir: t.TempDir()}
	if _, err := Start(p, nil); err == nil {
		t.Error("a plan started without an engine constructor")
	}
}

package experiments

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// Scorer solves instances with the policy a run's validation selected (its best checkpoint)
// and reports the step of that checkpoint: eval.LoadPolicy and Policy.Solve in the program.
type Scorer func(dir string, env envs.Env, insts []envs.Instance) (sols []envs.Solution, step int, err error)

// TestSeed is the dataset seed of every table's test set: seed 0, which no run trains or
// validates on (runs use seeds 1..Seeds), so each table scores every model and seed on the
// same instances.
const TestSeed = 0

// TestSet is a table's fixed test set with its references.
type TestSet struct {
	Task envs.Task `json:"task"`
	N    int       `json:"n"`
	// Data is the runs' data spec (run.Config.Data), "" for the data of sets made before it.
	Data string `json:"data,omitempty"`
	Seed uint64 `json:"seed"`
	Size int    `json:"size"`
	// Optimum is each instance's optimal objective, for a metric measured against it (mwm).
	Optimum []float64 `json:"optimum,omitempty"`
	// Solvers are the mean objectives of the exact and classical solvers a table shows
	// (envs.Facts.Table).
	Solvers map[string]float64 `json:"solvers,omitempty"`
	// Checksum binds the set to its instances and envs.SolverVersion (checksum), since its
	// optima cannot be checked without solving them again. Sets written before it have none.
	Checksum string `json:"checksum,omitempty"`
}

// Name identifies the set: "tsp20-seed0-1000", and with a data spec "sort20-range-k-10-seed0-1000"
// (the spec's punctuation as dashes, for a file name).
func (t TestSet) Name() string {
	if t.Data == "" {
		return fmt.Sprintf("%s%d-seed%d-%d", t.Task, t.N, t.Seed, t.Size)
	}
	data := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' {
			return r
		}
		return '-'
	}, t.Data)
	return fmt.Sprintf("%s%d-%s-seed%d-%d", t.Task, t.N, data, t.Seed, t.Size)
}

func (t TestSet) instances() (envs.Env, []envs.Instance, error) {
	env, err := envs.NewData(t.Task, t.N, t.Data)
	if err != nil {
		return nil, nil, err
	}
	ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(t.Seed, envs.Test), Size: t.Size}
	insts := make([]envs.Instance, t.Size)
	for i := range insts {
		insts[i] = ds.At(i)
	}
	return env, insts, nil
}

// testSets computes and caches the test sets of an experiment directory (DIR/testsets), once
// each even when several runs ask at once.
type testSets struct {
	dir string
	// cachedOnly refuses to compute a set not yet on disk (errNotComputed): a stopped
	// experiment's report must not spend minutes on Held-Karp references before it exits.
	cachedOnly bool
	// warn tells of a set on disk that is wrong and computed again, in one line.
	warn func(string)
	mu   sync.Mutex
	sets map[string]*testSetEntry
}

// errNotComputed is testSets.get's error for a set not on disk when only cached sets are read.
var errNotComputed = errors.New("test set not computed yet")

type testSetEntry struct {
	once sync.Once
	set  TestSet
	err  error
}

// newTestSets keeps the test sets of the experiment directory dir, telling warn of a wrong one.
func newTestSets(dir string, warn func(string)) *testSets {
	return &testSets{dir: filepath.Join(dir, "testsets"), sets: map[string]*testSetEntry{}, warn: warn}
}

// get returns the test set of task at size n on data with size instances.
func (ts *testSets) get(task envs.Task, n int, data string, size int) (TestSet, error) {
	want := TestSet{Task: task, N: n, Data: data, Seed: TestSeed, Size: size}
	ts.mu.Lock()
	e := ts.sets[want.Name()]
	if e == nil {
		e = &testSetEntry{}
		ts.sets[want.Name()] = e
	}
	ts.mu.Unlock()
	e.once.Do(func() { e.set, e.err = ts.load(want) })
	return e.set, e.err
}

// load returns the set want as written in the directory if it passes checkAgainst, or else
// computes and writes it (with cachedOnly, errNotComputed instead). A file that is unreadable or
// wrong is told to warn; one without a checksum, from an older version, is replaced quietly.
func (ts *testSets) load(want TestSet) (TestSet, error) {
	path := filepath.Join(ts.dir, want.Name()+".json")
	then := "computing it again"
	if ts.cachedOnly {
		then = "leaving it out"
	}
	var got TestSet
	err := run.ReadJSONBounded(path, maxTestSetBytes(want.Size), &got)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		ts.warn(fmt.Sprintf("the test set %s is unreadable (%v): %s", path, err, then))
	}
	env, insts, ierr := want.instances()
	if ierr != nil {
		return want, ierr
	}
	if err == nil {
		err = got.checkAgainst(want, insts)
		if err == nil {
			return got, nil
		}
		if !errors.Is(err, errUnsealed) {
			ts.warn(fmt.Sprintf("the test set %s is wrong (%v): %s", path, err, then))
		}
	}
	if ts.cachedOnly {
		return want, errNotComputed
	}
	facts := envs.MustFacts(want.Task)
	if facts.Metric.PerOptimum {
		sols, err := envs.SolveAll(env, facts.Exact(want.N), insts, 1)
		if err != nil {
			return want, err
		}
		want.Optimum = objectives(sols)
	}
	if len(facts.Table) > 0 {
		want.Solvers = map[string]float64{}
		for _, s := range facts.Table {
			if facts.SolverLimit != nil && facts.SolverLimit(s, want.N) != nil {
				continue
			}
			sols, err := envs.SolveAll(env, s, insts, 1)
			if err != nil {
				return want, err
			}
			want.Solvers[s] = stats.Mean(objectives(sols))
		}
	}
	if err := os.MkdirAll(ts.dir, 0o755); err != nil {
		return want, err
	}
	want.Checksum = want.checksum(insts)
	return want, run.WriteJSONAtomic(path, want)
}

func objectives(sols []envs.Solution) []float64 {
	out := make([]float64, len(sols))
	for i, s := range sols {
		out[i] = s.Objective
	}
	return out
}

// TestScore is a run's score on its table's fixed test set, written to TestScoreFile in the run
// directory.
type TestScore struct {
	Set string `json:"set"`
	// Step is the step of the checkpoint validation selected.
	Step       int    `json:"step"`
	MetricName string `json:"metric_name"`
	// Metric is the task metric of each instance (optimality ratio, Kendall tau, tour length);
	// Mean and Median summarise it.
	Metric       []float64 `json:"metric"`
	Mean, Median float64
	// Sampled is the sampled decode's score beside this single decode's, when the experiment
	// samples (Manifest.Sampling).
	Sampled *SampledScore `json:"sampled,omitempty"`
	// Transfer are the same policy's scores on the test sets of the arm's other sizes
	// (Arm.TestSizes), in their order.
	Transfer []TestScore `json:"transfer,omitempty"`
}

// TestScoreFile is the run's score on its table's test set.
const TestScoreFile = "experiment-test.json"

// scoring is what a run is scored with: the test set of its table, the test sets of its other
// sizes, the machine's scorers and the experiment's sampling (nil: the single decode only).
type scoring struct {
	set      TestSet
	transfer []TestSet
	score    Scorer
	sample   SampleScorer
	sampling *run.Decoding
}

// scoreRun scores the run in dir, once: an existing score of the same sets and sampling is
// kept and nil returned.
func scoreRun(dir string, sc scoring) (*TestScore, error) {
	path := filepath.Join(dir, TestScoreFile)
	var old TestScore
	if run.ReadJSON(path, &old) == nil && sc.done(old) {
		return nil, nil
	}
	ts, err := sc.scoreSet(dir, sc.set)
	if err != nil {
		return nil, err
	}
	for _, set := range sc.transfer {
		t, err := sc.scoreSet(dir, set)
		if err != nil {
			return nil, fmt.Errorf("n = %d: %v", set.N, err)
		}
		ts.Transfer = append(ts.Transfer, t)
	}
	return &ts, run.WriteJSONAtomic(path, ts)
}

// scoreLocked is scoreRun holding the run directory's lock, waited for while another process
// holds it: an experiment sharing the run that starts it meanwhile (to find it complete)
// removes the run's unfinished temporary files, this score's among them, which failed it.
func scoreLocked(dir string, sc scoring) (*TestScore, error) {
	for {
		lock, err := run.LockDir(dir)
		if locked := (*run.DirLockedError)(nil); errors.As(err, &locked) {
			time.Sleep(lockPoll)
			continue
		}
		if err != nil {
			return nil, err
		}
		defer lock.Release()
		return scoreRun(dir, sc)
	}
}

// done reports whether old already scores sc's sets with sc's sampling.
func (sc scoring) done(old TestScore) bool {
	same := func(t TestScore, set TestSet) bool {
		if t.Set != set.Name() {
			return false
		}
		if sc.sampling == nil {
			return t.Sampled == nil
		}
		return t.Sampled != nil && t.Sampled.Sampling == *sc.sampling
	}
	if !same(old, sc.set) || len(old.Transfer) != len(sc.transfer) {
		return false
	}
	for i, set := range sc.transfer {
		if !same(old.Transfer[i], set) {
			return false
		}
	}
	return true
}

// scoreSet scores the run in dir on set with the single decode and, when the experiment
// samples, the sampled decode too, timing each.
func (sc scoring) scoreSet(dir string, set TestSet) (TestScore, error) {
	env, insts, err := set.instances()
	if err != nil {
		return TestScore{}, err
	}
	start := time.Now()
	sols, step, err := sc.score(dir, env, insts)
	if err != nil {
		return TestScore{}, fmt.Errorf("scoring the test set: %v", err)
	}
	single := time.Since(start)
	if len(sols) != len(insts) {
		return TestScore{}, fmt.Errorf("scoring the test set: %d solutions for %d instances", len(sols), len(insts))
	}
	facts := envs.MustFacts(set.Task)
	m := facts.Metric.Score(objectives(sols), set.Optimum)
	ts := TestScore{Set: set.Name(), Step: step, MetricName: facts.Metric.Name, Metric: m,
		Mean: stats.Mean(m), Median: stats.Median(m)}
	if sc.sampling == nil {
		return ts, nil
	}
	if sc.sample == nil {
		return TestScore{}, errors.New("scoring the test set: this machine cannot sample")
	}
	start = time.Now()
	sampled, err := sc.sample(dir, env, insts, *sc.sampling)
	if err != nil {
		return TestScore{}, fmt.Errorf("sampling the test set: %v", err)
	}
	took := time.Since(start)
	if len(sampled) != len(insts) {
		return TestScore{}, fmt.Errorf("sampling the test set: %d solutions for %d instances", len(sampled), len(insts))
	}
	sm := facts.Metric.Score(objectives(sampled), set.Optimum)
	ts.Sampled = &SampledScore{Sampling: *sc.sampling, Metric: sm, Mean: stats.Mean(sm), Median: stats.Median(sm),
		SingleMS: msPerInstance(single, len(insts)), SampledMS: msPerInstance(took, len(insts))}
	return ts, nil
}

// msPerInstance is d per instance in milliseconds.
func msPerInstance(d time.Duration, count int) float64 {
	return d.Seconds() * 1000 / float64(count)
}

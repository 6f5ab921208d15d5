package agent

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/eval"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/run"
)

// tinyConfig is a run that takes milliseconds with the fake learner: 6 steps per epoch, logs
// every 5 steps, validates every 10.
func tinyConfig(task envs.Task, n int) run.Config {
	cfg := run.DefaultConfig(task, n)
	cfg.Steps, cfg.Batch, cfg.Buffer = 40, 8, 64
	cfg.TrainSize, cfg.ValSize, cfg.TestSize = 50, 12, 10
	cfg.EvalEvery, cfg.LogEvery, cfg.LRDecayEvery = 10, 5, 15
	cfg.ActorLR, cfg.CriticLR = 0.05, 0.05
	cfg.K = 3
	return cfg
}

// runRef hands a run to a learner hook that may fire before startRun has returned it.
type runRef struct{ p atomic.Pointer[trainer] }

// set publishes the run to the hooks.
func (r *runRef) set(t *trainer) { r.p.Store(t) }

// at returns a learner hook that calls act on the run at update u (waiting for set).
func (r *runRef) at(u int, act func(*trainer)) func(int) {
	return func(k int) {
		if k != u {
			return
		}
		for r.p.Load() == nil {
			runtime.Gosched()
		}
		act(r.p.Load())
	}
}

// waitDone waits for the run to end; the bound only catches a hang, so it allows for a loaded CI machine.
func waitDone(t *testing.T, e run.Engine) {
	t.Helper()
	select {
	case <-e.Done():
	case <-time.After(5 * time.Minute):
		t.Fatal("the run did not end")
	}
}

// trainToEnd trains a fresh run of cfg in a temporary directory to its last step and returns
// the directory; a run that cannot start or ends in an error fails the test.
func trainToEnd(t *testing.T, cfg run.Config) string {
	t.Helper()
	dir := t.TempDir()
	e, err := StartRun(cfg, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// drain returns the records buffered in the stream.
func drain(e run.Engine) []run.Record {
	var out []run.Record
	run.Drain(e.Records(), 0, func(r run.Record) { out = append(out, r) })
	return out
}

func readMetrics(t *testing.T, dir string) []run.Record {
	t.Helper()
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func mustStart(t *testing.T, cfg run.Config, dir string, o fakeOpts) *trainer {
	t.Helper()
	e, err := startRun(cfg, dir, nil, fakeFactory(o))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRunCompletes(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskMWM, 5)
	e := mustStart(t, cfg, dir, fakeOpts{})
	if info := e.Info(); info.Model != "SPG+Matching" || info.Title != "SPG+Matching · MWM-5" || info.BufferCapacity != 64 || info.Dir != dir {
		t.Errorf("Info = %+v", info)
	}
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	if s := e.Status(); s.State != run.StateDone || s.Step != 40 || s.TotalSteps != 40 || s.Dropped != 0 {
		t.Errorf("Status = %+v", s)
	}
	recs := readMetrics(t, dir)
	streamed := drain(e)
	if len(streamed) != len(recs) {
		t.Errorf("streamed %d records, metrics.jsonl has %d", len(streamed), len(recs))
	}
	for _, r := range streamed {
		if r.Kind == run.KindEval && r.Eval.Split == "val" && len(r.Eval.Samples[0].M) != 25 {
			t.Errorf("streamed val record at step %d: sample's M %v, want 5x5", r.Step, r.Eval.Samples[0].M)
		}
	}
	var trainSteps, valSteps []int
	var test *run.Eval
	for i, r := range recs {
		switch {
		case i == 0:
			if r.Event == nil || r.Event.Event != run.EventStart {
				t.Fatalf("first record %+v, want the start event", r)
			}
			refs := r.Event.References
			if refs["optimal"] != 1 || !(refs["greedy"] > refs["random"]) || !(refs["greedy"] <= 1) {
				t.Errorf("references %v", refs)
			}
		case r.Kind == run.KindTrain:
			trainSteps = append(trainSteps, r.Step)
			if r.Train.Epsilon <= 0 || r.Train.Epsilon > 1 || r.Train.Birkhoff <= 0 || r.Train.Birkhoff > 1 {
				t.Errorf("train record %+v", r.Train)
			}
		case r.Kind == run.KindEval && r.Eval.Split == "val":
			valSteps = append(valSteps, r.Step)
			ev := r.Eval
			if ev.MetricName != "optimality_ratio" || !(ev.Metric > 0 && ev.Metric <= 1) ||
				len(ev.QHardScatter) != 12 || len(ev.QSoftScatter) != 12 || len(ev.Samples) != eval.SampleCount {
				t.Errorf("val record at step %d: %+v", r.Step, ev)
			}
			if s := ev.Samples[0]; len(s.Perm) != 5 || len(s.OptPerm) != 5 || s.OptSolverName != "hungarian" || s.Objective > s.OptObjective+1e-12 {
				t.Errorf("sample %+v", s)
			}
			// M is streamed to the console only; its summary is in metrics.jsonl.
			if s := ev.Samples[0]; s.M != nil || !(s.Birkhoff > 0 && s.Birkhoff <= 1+1e-6) || !(s.Entropy >= 0 && s.Entropy <= math.Log(5)+1e-6) {
				t.Errorf("sample's M %v: entropy %g, birkhoff %g", s.M, s.Entropy, s.Birkhoff)
			}
		case r.Kind == run.KindEval && r.Eval.Split == "test":
			test = r.Eval
		}
	}
	if want := []int{5, 10, 15, 20, 25, 30, 35, 40}; !reflect.DeepEqual(trainSteps, want) {
		t.Errorf("train records at %v, want %v", trainSteps, want)
	}
	if want := []int{0, 10, 20, 30, 40}; !reflect.DeepEqual(valSteps, want) {
		t.Errorf("val records at %v, want %v (the untrained policy first)", valSteps, want)
	}
	if last := recs[len(recs)-1]; last.Event == nil || last.Event.Event != run.EventDone {
		t.Errorf("last record %+v, want done", last)
	}
	if test == nil || test.Samples != nil || test.QHardScatter != nil {
		t.Fatalf("test record %+v", test)
	}
	var res run.Result
	if err := run.ReadJSON(filepath.Join(dir, run.ResultFile), &res); err != nil || res.Step != 40 || !reflect.DeepEqual(res.Test, test) {
		t.Errorf("result.json %+v, %v", res, err)
	}
	for _, f := range []string{run.LastCheckpoint, run.BestCheckpoint, run.ConfigFile, run.LogFile, "cache/val.json", "cache/test.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// A finished run refuses a resume to the same total, and the same config resumes it.
	if _, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "complete at step 40; give a larger --steps or --epochs") {
		t.Errorf("resuming a finished run: %v", err)
	}
	if _, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "complete") {
		t.Errorf("restarting a finished run: %v", err)
	}
}

// runSummary is what must be identical between an uninterrupted run and a resumed one.
type runSummary struct {
	params, rng []byte
	replay      *replay.Buffer
	train       []run.Train
	trainSteps  []int
	evals       []run.Eval
	evalSteps   []int
}

func summarise(t *testing.T, dir string) runSummary {
	t.Helper()
	ck, err := checkpoint.Open(filepath.Join(dir, run.LastCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	defer ck.Close()
	cap, _ := replay.Capacity(ck.Header.Config)
	s := runSummary{params: ck.Learner, rng: ck.Header.RNG, replay: replay.New(ck.Header.Config.N, cap)}
	if err := ck.ReadReplay(s.replay); err != nil {
		t.Fatal(err)
	}
	for _, r := range settled(readMetrics(t, dir)) {
		switch r.Kind {
		case run.KindTrain:
			tr := *r.Train
			tr.StepsPerSec = 0
			s.train = append(s.train, tr)
			s.trainSteps = append(s.trainSteps, r.Step)
		case run.KindEval:
			s.evals = append(s.evals, *r.Eval)
			s.evalSteps = append(s.evalSteps, r.Step)
		}
	}
	return s
}

func TestResumeIsExact(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	straight := t.TempDir()
	waitDone(t, mustStart(t, cfg, straight, fakeOpts{}))
	want := summarise(t, straight)

	check := func(name, dir string) {
		t.Helper()
		got := summarise(t, dir)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the resumed run differs from the uninterrupted one", name)
		}
	}

	// Stopped mid-interval (step 17: logs every 5, validates every 10), then resumed.
	for _, stopAt := range []int{17, 20} {
		dir := t.TempDir()
		var eng runRef
		hook := eng.at(stopAt, (*trainer).Stop)
		e, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{hook: hook}))
		if err != nil {
			t.Fatal(err)
		}
		eng.set(e)
		waitDone(t, e)
		if s := e.Status(); s.State != run.StateStopped || s.Step != stopAt || e.Err() != nil {
			t.Fatalf("stop at %d: status %+v, err %v", stopAt, s, e.Err())
		}
		r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, r)
		if r.Err() != nil || r.Status().State != run.StateDone {
			t.Fatalf("resumed run: %v, %+v", r.Err(), r.Status())
		}
		check("stopped", dir)
	}

	// Finished at half the total, then resumed to the full total.
	dir := t.TempDir()
	half := cfg
	half.Steps = 20
	waitDone(t, mustStart(t, half, dir, fakeOpts{}))
	r, err := resumeRun(dir, 40, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if got, err := run.ReadRunConfig(dir); err != nil || got.Steps != 40 {
		t.Errorf("config.json steps %d, %v", got.Steps, err)
	}
	got := summarise(t, dir)
	// The half run also scored the test set at step 20; drop that record.
	for i, ev := range got.evals {
		if ev.Split == "test" && got.evalSteps[i] == 20 {
			got.evals = append(got.evals[:i], got.evals[i+1:]...)
			got.evalSteps = append(got.evalSteps[:i], got.evalSteps[i+1:]...)
			break
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("finished at 20 and resumed to 40: differs from the uninterrupted run")
	}
}

func TestLiveControl(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskSort, 5)
	var eng runRef
	hook := eng.at(3, (*trainer).Pause)
	e, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{hook: hook}))
	if err != nil {
		t.Fatal(err)
	}
	eng.set(e)
	deadline := time.Now().Add(20 * time.Second)
	for e.Status().State != run.StatePaused {
		if time.Now().After(deadline) {
			t.Fatalf("not paused: %+v", e.Status())
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if s := e.Status(); s.Step != 3 || s.State != run.StatePaused {
		t.Fatalf("paused at %+v, want step 3", s)
	}

	// Invalid values are refused at once, naming the parameter; the old value stays.
	for _, tc := range []struct {
		param string
		value float64
	}{
		{run.ParamTau, 0}, {run.ParamTau, -1}, {run.ParamSinkhornIters, 0}, {run.ParamSinkhornIters, 2.5},
		{run.ParamEpsilon, 1.5}, {run.ParamEpsEnd, -0.1}, {run.ParamEpsDecay, 2},
		{run.ParamActorLR, 0}, {run.ParamCriticLR, -1}, {"bogus", 1},
	} {
		err := e.Set(tc.param, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.param) {
			t.Errorf("Set(%s, %g) = %v, want an error naming it", tc.param, tc.value, err)
		}
	}
	if got := e.Config(); got != cfg {
		t.Errorf("refused changes altered the config: %+v", got)
	}

	sets := []struct {
		param    string
		old, new float64
	}{
		{run.ParamTau, 0.05, 0.5}, {run.ParamSinkhornIters, 10, 4}, {run.ParamEpsilon, cfg.Epsilon(3), 0.3},
		{run.ParamEpsEnd, 0.01, 0.2}, {run.ParamEpsDecay, 0.05, 0.1}, {run.ParamActorLR, 0.05, 0.01},
		{run.ParamCriticLR, 0.05, 0.02}, {run.FlagCriticPenalty, 1, 0}, {run.FlagExploration, 1, 0},
	}
	for _, s := range sets {
		if err := e.Set(s.param, s.new); err != nil {
			t.Fatalf("%s: %v", s.param, err)
		}
	}
	e.Checkpoint()
	// Requests made while paused are served at once: wait for the checkpoint event.
	var events []*run.Event
	// (The early checkpoint of step 0 comes first.)
	for len(events) == 0 || events[len(events)-1].Event != run.EventCheckpoint || strings.Contains(events[len(events)-1].Message, "early") {
		select {
		case r := <-e.Records():
			if r.Event != nil {
				events = append(events, r.Event)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no checkpoint event; events %v", events)
		}
	}
	if e.Status().Step != 3 {
		t.Fatalf("a paused run advanced to step %d", e.Status().Step)
	}
	var got []run.Event
	for _, ev := range events {
		if ev.Event == run.EventSet {
			got = append(got, *ev)
		}
	}
	if len(got) != len(sets) {
		t.Fatalf("set events %+v", got)
	}
	for i, s := range sets {
		if got[i].Param != s.param || got[i].Old != s.old || got[i].New != s.new {
			t.Errorf("event %+v, want %s %g -> %g", got[i], s.param, s.old, s.new)
		}
	}
	c := e.Config()
	if c.Tau != 0.5 || c.SinkhornIters != 4 || c.EpsStart != 0.3 || c.EpsAnchor != 3 || c.Epsilon(3) != 0.3 ||
		c.EpsEnd != 0.2 || c.EpsDecay != 0.1 || c.ActorLR != 0.01 || c.CriticLR != 0.02 || c.CriticPenalty || c.Exploration {
		t.Errorf("config after the changes: %+v", c)
	}
	ck, err := checkpoint.Open(filepath.Join(dir, run.LastCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	ck.Close()
	if ck.Header.Step != 3 || ck.Header.Config != c {
		t.Errorf("checkpoint at step %d with config %+v", ck.Header.Step, ck.Header.Config)
	}

	e.Resume()
	waitDone(t, e)
	if e.Err() != nil {
		t.Fatal(e.Err())
	}
	var sawPause, sawResume bool
	for _, r := range readMetrics(t, dir) {
		if r.Kind == run.KindEvent && r.Event.Event == run.EventPause && r.Step == 3 {
			sawPause = true
		}
		if r.Kind == run.KindEvent && r.Event.Event == run.EventResume && r.Step == 3 {
			sawResume = true
		}
		if r.Kind == run.KindTrain && r.Step > 5 {
			// Exploration is off and the LR is the new base, decayed from step 15.
			if r.Train.Epsilon != 0 || r.Train.ActorLR != 0.01*cfg.LRScale(r.Step-1) {
				t.Errorf("train record at %d: %+v", r.Step, r.Train)
			}
		}
	}
	if !sawPause || !sawResume {
		t.Errorf("pause %v, resume %v events at step 3", sawPause, sawResume)
	}
	if err := e.Set(run.ParamTau, 1); err == nil {
		t.Error("Set on an ended run accepted")
	}
}

func TestRecordsNeverBlock(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskSort, 4)
	cfg.Steps, cfg.LogEvery, cfg.EvalEvery = recordBuffer+200, 1, recordBuffer+200
	e := mustStart(t, cfg, dir, fakeOpts{})
	waitDone(t, e) // nobody reads Records
	recs := readMetrics(t, dir)
	s := e.Status()
	if s.Dropped == 0 || int(s.Dropped)+recordBuffer != len(recs) {
		t.Errorf("dropped %d with %d records in the file and a buffer of %d", s.Dropped, len(recs), recordBuffer)
	}
}

func TestNonFiniteStopsTheRun(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 4)
	dir := t.TempDir()
	e := mustStart(t, cfg, dir, fakeOpts{nanLossAt: 7})
	waitDone(t, e)
	if err := e.Err(); err == nil || err.Error() != "step 7: non-finite critic loss (NaN)" {
		t.Errorf("err = %v", err)
	}
	if s := e.Status(); s.State != run.StateFailed || s.Step != 6 {
		t.Errorf("status %+v", s)
	}
	if recs := readMetrics(t, dir); recs[len(recs)-1].Event == nil || recs[len(recs)-1].Event.Event != run.EventError {
		t.Error("no error event at the end of metrics.jsonl")
	}

	// A good run, then a resume that diverges: the good checkpoints stay as they were.
	half := cfg
	half.Steps = 20
	waitDone(t, mustStart(t, half, dir+"/b", fakeOpts{}))
	last, _ := os.ReadFile(filepath.Join(dir, "b", run.LastCheckpoint))
	best, _ := os.ReadFile(filepath.Join(dir, "b", run.BestCheckpoint))
	for _, tc := range []struct {
		name   string
		o      fakeOpts
		ckptAt int // a Checkpoint request after this update
		want   string
	}{
		{"NaN parameters at a checkpoint", fakeOpts{poisonAt: 25}, 25, "step 25: checkpoint refused: non-finite M"},
		{"NaN parameters before a validation", fakeOpts{poisonAt: 30}, 0, "step 30: validation: non-finite M"},
		{"NaN parameters before a step", fakeOpts{poisonAt: 23}, 0, "step 24: non-finite M"},
		// Last: its checkpoint at step 25 replaces the one at 20, which is right.
		{"NaN loss", fakeOpts{nanLossAt: 27}, 25, "step 27: non-finite critic loss (NaN)"},
	} {
		var eng runRef
		o := tc.o
		o.hook = eng.at(tc.ckptAt, (*trainer).Checkpoint)
		r, err := resumeRun(filepath.Join(dir, "b"), 40, nil, fakeFactory(o))
		if err != nil {
			t.Fatal(err)
		}
		eng.set(r)
		waitDone(t, r)
		if err := r.Err(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q...", tc.name, err, tc.want)
		}
		l2, _ := os.ReadFile(filepath.Join(dir, "b", run.LastCheckpoint))
		b2, _ := os.ReadFile(filepath.Join(dir, "b", run.BestCheckpoint))
		if tc.name == "NaN loss" {
			ck, err := checkpoint.Open(filepath.Join(dir, "b", run.LastCheckpoint))
			if err != nil || ck.Header.Step != 25 {
				t.Errorf("%s: last checkpoint %v", tc.name, err)
			} else {
				ck.Close()
			}
			continue
		}
		if !reflect.DeepEqual(l2, last) || !reflect.DeepEqual(b2, best) {
			t.Errorf("%s: a good checkpoint was overwritten", tc.name)
		}
	}
}

func TestStartRunDirectory(t *testing.T) {
	cfg := tinyConfig(envs.TaskSort, 4)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a foreign non-empty directory: %v", err)
	}
	dir = t.TempDir()
	half := cfg
	half.Steps = 20
	waitDone(t, mustStart(t, half, dir, fakeOpts{}))
	other := cfg
	other.Tau = 0.1
	if _, err := startRun(other, dir, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "tau") {
		t.Errorf("another configuration: %v", err)
	}
	// The same configuration with a larger total continues the run.
	e, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e)
	if s := e.Status(); e.Err() != nil || s.State != run.StateDone || s.Step != 40 {
		t.Errorf("continued run: %+v, %v", s, e.Err())
	}
	for _, bad := range []func(*run.Config){
		func(c *run.Config) { c.Tau = 0 }, func(c *run.Config) { c.Steps = 0 }, func(c *run.Config) { c.Batch = 0 },
		func(c *run.Config) { c.BufferMem = 100 },
	} {
		c := cfg
		bad(&c)
		d := filepath.Join(t.TempDir(), "run")
		if _, err := startRun(c, d, nil, fakeFactory(fakeOpts{})); err == nil {
			t.Errorf("bad config %+v accepted", c)
		}
		if _, err := os.Stat(d); err == nil {
			t.Errorf("a refused config created its directory")
		}
	}
	if _, err := resumeRun(t.TempDir(), 0, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "no checkpoint") {
		t.Errorf("resuming an empty directory: %v", err)
	}
}

func TestStopDuringReferences(t *testing.T) {
	// TSP-16 optima by Held-Karp take a while; a Stop must not wait for all of them.
	cfg := tinyConfig(envs.TaskTSP, 16)
	cfg.ValSize = 400
	dir := t.TempDir()
	e := mustStart(t, cfg, dir, fakeOpts{})
	time.Sleep(20 * time.Millisecond)
	began := time.Now()
	e.Stop()
	waitDone(t, e)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Stop took %s", d)
	}
	if s := e.Status(); e.Err() != nil || s.State != run.StateStopped {
		t.Errorf("status %+v, err %v", s, e.Err())
	}
	if _, err := os.Stat(filepath.Join(dir, run.LastCheckpoint)); err != nil {
		t.Error(err)
	}
}

// TestStopBeforeTheTest stops a run during its last step: the stop cuts the final validation
// short (evaluations stop within a chunk), so the resume validates that step, then scores the
// test set, once.
func TestStopBeforeTheTest(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 4)
	dir := t.TempDir()
	var eng runRef
	hook := eng.at(cfg.Steps, (*trainer).Stop)
	e, err := startRun(cfg, dir, nil, fakeFactory(fakeOpts{hook: hook}))
	if err != nil {
		t.Fatal(err)
	}
	eng.set(e)
	waitDone(t, e)
	if s := e.Status(); s.State != run.StateStopped || s.Step != cfg.Steps || e.Err() != nil {
		t.Fatalf("status %+v, %v", s, e.Err())
	}
	before := len(readMetrics(t, dir))
	r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if s := r.Status(); s.State != run.StateDone || r.Err() != nil {
		t.Fatalf("resumed: %+v, %v", s, r.Err())
	}
	var kinds []string
	for _, rec := range readMetrics(t, dir)[before:] {
		k := rec.Kind
		if rec.Event != nil {
			k = rec.Event.Event
		}
		if rec.Eval != nil {
			k = rec.Eval.Split
		}
		kinds = append(kinds, k)
	}
	if want := []string{run.EventStart, "val", "test", run.EventDone}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("the resume recorded %v, want %v", kinds, want)
	}
}

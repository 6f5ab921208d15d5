package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"spg-tui/envs"
	"spg-tui/run"
)

// StartFunc starts a training run in dir; agent.StartRun on the command's device in the
// program, a scripted engine in tests.
type StartFunc func(cfg run.Config, dir string) (run.Engine, error)

// Phase is where one run of a plan stands.
type Phase int

// The phases of a run.
const (
	Pending  Phase = iota
	Running        // started and training
	Finished       // reached its step budget
	Stopped        // stopped by Runner.Stop; its checkpoint can be resumed
	Failed         // did not start, or ended with an error
	Skipped        // never started because the runner was stopped
)

// String names the phase.
func (p Phase) String() string {
	return [...]string{"pending", "running", "finished", "stopped", "failed", "skipped"}[p]
}

// EvalPoint is one validation evaluation of a run.
type EvalPoint struct {
	Step   int
	Metric float64
}

// runState is what the runner knows of one run; guarded by Runner.mu.
type runState struct {
	phase  Phase
	engine run.Engine
	evals  []EvalPoint
	step   int
	// start is the step this process took the run up at: its checkpoint's when resumed, its
	// budget when trained in an earlier session, so that step - start is what trained here.
	start int
	err   error
	// elsewhere reports that another process (an experiment sharing the run) holds the run's
	// directory: this runner waits for it to let go.
	elsewhere bool
}

// Batch is a set of runs grouped into named variants: an ablation's plan expanded, or the runs
// of an experiment preset. One Runner trains either.
type Batch struct {
	// Name and Title describe the batch; Variants name the groups Run.Variant indexes.
	Name, Title string
	Variants    []string
	Runs        []Run
	// Steps and Seeds are the budget of a run and the runs per variant, for display.
	Steps, Seeds int
	// Parallel is how many runs train at once; 0 means DefaultParallel.
	Parallel int
	// Maximize reports whether a larger validation metric is better.
	Maximize bool
	// After, if set, is called in a run's slot once it has trained to its end (or at once for a
	// run marked Trained); an error fails the run. The experiment scores its test set here.
	After func(r Run) error
}

// Runner trains the runs of a batch, at most Batch.Parallel at a time, and gathers their
// validation curves. Its methods are safe for concurrent use.
type Runner struct {
	batch    Batch
	runs     []Run
	start    StartFunc
	maximize bool
	done     chan struct{}

	mu       sync.Mutex
	state    []runState
	stopping bool
	metric   string
	version  uint64
}

// Start expands the plan and begins training its runs in the background.
func Start(plan Plan, start StartFunc) (*Runner, error) {
	runs, err := plan.Runs()
	if err != nil {
		return nil, err
	}
	facts, err := envs.FactsOf(plan.Base.Task)
	if err != nil {
		return nil, err
	}
	b := Batch{Name: plan.Ablation.Name, Title: plan.Ablation.Title, Runs: runs,
		Steps: plan.Steps, Seeds: plan.Seeds, Parallel: plan.Parallel, Maximize: facts.Metric.Maximize}
	for _, v := range plan.Ablation.Variants {
		b.Variants = append(b.Variants, v.Name)
	}
	return StartBatch(b, start)
}

// StartBatch begins training the batch's runs in the background.
func StartBatch(b Batch, start StartFunc) (*Runner, error) {
	if start == nil {
		return nil, errors.New("experiments: no engine to train with")
	}
	for _, run := range b.Runs {
		if run.Variant < 0 || run.Variant >= len(b.Variants) {
			return nil, fmt.Errorf("experiments: run %s: variant %d of %d", run.Dir, run.Variant, len(b.Variants))
		}
	}
	if b.Parallel < 1 {
		b.Parallel = DefaultParallel
	}
	r := &Runner{batch: b, runs: b.Runs, start: start, maximize: b.Maximize,
		done: make(chan struct{}), state: make([]runState, len(b.Runs))}
	go r.schedule()
	return r, nil
}

// Done is closed once every run has ended or been skipped.
func (r *Runner) Done() <-chan struct{} { return r.done }

// Stop asks every live run to checkpoint and end, and skips the runs not started yet. It
// returns at once; Done is closed when the live runs have ended.
func (r *Runner) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopping = true
	for _, s := range r.state {
		if s.engine != nil && s.phase == Running {
			s.engine.Stop()
		}
	}
}

// Version counts the changes to the runner's results, so that a view can redraw only when it
// has moved.
func (r *Runner) Version() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.version
}

func (r *Runner) schedule() {
	defer close(r.done)
	slots := make(chan struct{}, r.batch.Parallel)
	var wg sync.WaitGroup
	for i := range r.runs {
		slots <- struct{}{}
		r.mu.Lock()
		stopping := r.stopping
		r.mu.Unlock()
		if stopping {
			<-slots
			r.skipFrom(i)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				held := r.work(i)
				<-slots
				// A run another process trains is waited for without a slot, so that
				// this runner trains its other runs meanwhile.
				if !held || !r.awaitRelease(i) {
					return
				}
				slots <- struct{}{}
			}
		}()
	}
	wg.Wait()
}

func (r *Runner) skipFrom(i int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ; i < len(r.state); i++ {
		r.state[i].phase = Skipped
	}
	r.version++
}

// work trains run i to its end, recording its validation evaluations. It reports whether
// another process holds the run's directory, in which case nothing was started.
func (r *Runner) work(i int) (held bool) {
	job := r.runs[i]
	if job.Trained {
		r.trained(i)
		return false
	}
	eng, err := r.start(job.Config, job.Dir)
	if err != nil && job.Dir != "" && trained(job.Dir, job.Config) {
		// Another experiment sharing the run finished it since this one was planned.
		r.trained(i)
		return false
	}
	r.mu.Lock()
	if locked := (*run.DirLockedError)(nil); errors.As(err, &locked) {
		r.state[i].elsewhere = true
		r.version++
		r.mu.Unlock()
		return true
	}
	if err != nil {
		r.state[i].phase, r.state[i].err = Failed, err
		r.version++
		r.mu.Unlock()
		return false
	}
	r.state[i].phase, r.state[i].engine = Running, eng
	r.state[i].start = eng.Status().Step
	r.state[i].step = max(r.state[i].step, r.state[i].start)
	if r.stopping {
		eng.Stop()
	}
	r.version++
	r.mu.Unlock()

	run.Follow(eng.Records(), func(rec run.Record) { r.observe(i, rec) })
	<-eng.Done()
	r.finish(i, eng)
	r.after(i)
	return false
}

// lockPoll is how often a run directory another process holds is tried again.
var lockPoll = time.Second

// awaitRelease waits until no process holds run i's directory; then work starts it again,
// which resumes the run, or scores it if the other process finished it. It reports false, the
// run skipped, when the runner is stopped meanwhile.
func (r *Runner) awaitRelease(i int) bool {
	for {
		r.mu.Lock()
		stopping := r.stopping
		if stopping {
			r.state[i].phase, r.state[i].elsewhere = Skipped, false
			r.version++
		}
		r.mu.Unlock()
		if stopping {
			return false
		}
		lock, err := run.LockDir(r.runs[i].Dir)
		if locked := (*run.DirLockedError)(nil); !errors.As(err, &locked) {
			// Free (or not lockable at all, which starting the run reports).
			lock.Release()
			r.mu.Lock()
			r.state[i].elsewhere = false
			r.version++
			r.mu.Unlock()
			return true
		}
		time.Sleep(lockPoll)
	}
}

// trained records run i, trained in an earlier session, from its metrics file, and runs the
// batch's After on it.
func (r *Runner) trained(i int) {
	evals := readEvals(filepath.Join(r.runs[i].Dir, run.MetricsFile))
	r.mu.Lock()
	s := &r.state[i]
	s.evals, s.step, s.start, s.phase = evals, r.runs[i].Config.Steps, r.runs[i].Config.Steps, Finished
	r.version++
	r.mu.Unlock()
	r.after(i)
}

// after runs the batch's After on run i if it finished, and fails the run on its error.
func (r *Runner) after(i int) {
	r.mu.Lock()
	finished := r.state[i].phase == Finished
	r.mu.Unlock()
	if !finished || r.batch.After == nil {
		return
	}
	err := r.batch.After(r.runs[i])
	if err == nil {
		return
	}
	r.mu.Lock()
	r.state[i].phase, r.state[i].err = Failed, err
	r.version++
	r.mu.Unlock()
}

func (r *Runner) observe(i int, rec run.Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.state[i]
	s.step = max(s.step, rec.Step)
	if rec.Eval != nil && rec.Kind == run.KindEval && rec.Split == "val" {
		s.evals = append(s.evals, EvalPoint{Step: rec.Step, Metric: rec.Metric})
		if r.metric == "" {
			r.metric = rec.MetricName
		}
	}
	r.version++
}

func (r *Runner) finish(i int, eng run.Engine) {
	st := eng.Status()
	var evals []EvalPoint
	if st.Dropped > 0 {
		// The reader missed records; metrics.jsonl has them all.
		evals = readEvals(filepath.Join(r.runs[i].Dir, run.MetricsFile))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &r.state[i]
	if evals != nil {
		s.evals = evals
	}
	s.step = max(s.step, st.Step)
	s.engine = nil
	switch err := eng.Err(); {
	case err != nil:
		s.phase, s.err = Failed, err
	case st.State == run.StateDone:
		s.phase = Finished
	case st.State == run.StateFailed:
		s.phase, s.err = Failed, errors.New("run failed")
	default:
		s.phase = Stopped
	}
	r.version++
}

// readEvals returns the validation evaluations of a metrics file, nil when it cannot be read.
func readEvals(path string) []EvalPoint {
	recs, err := run.ReadRecords(path)
	if err != nil {
		return nil
	}
	var out []EvalPoint
	for _, rec := range recs {
		if rec.Kind == run.KindEval && rec.Eval != nil && rec.Split == "val" {
			out = append(out, EvalPoint{Step: rec.Step, Metric: rec.Metric})
		}
	}
	return out
}

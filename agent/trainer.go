package agent

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/device"
	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/run"
)

// Engine tuning.
const (
	// recordBuffer is how many records the Records stream holds for a slow reader.
	recordBuffer = 1024
	// checkpointEvery is the least training time between two periodic checkpoints/last, which
	// are written at validation steps; a stop, a request and the end always write one. The
	// replay buffer makes the file large (up to BufferMem), hence the spacing.
	checkpointEvery = 10 * time.Minute
	// cheapReplayBytes and checkpointCostRatio make a validation checkpoint in full sooner
	// while that is cheap: when the encoded buffer is at most cheapReplayBytes (the whole run of
	// a small-scale experiment) and the time since the last full checkpoint is at least
	// checkpointCostRatio times what that one took (at most 5% of the run spent writing them).
	// A kill then resumes bit for bit, from a checkpoint at most a few validations old.
	cheapReplayBytes    = 64 << 20
	checkpointCostRatio = 20
	// rateSmoothing is the weight of the newest step in the steps-per-second average.
	rateSmoothing = 0.05
)

// trainer is the Engine: Algorithm 1 in its own goroutine, with live control between steps.
type trainer struct {
	info    run.RunInfo
	dir     string
	lock    *run.DirLock // the run directory's lock, released when the run ends
	records chan run.Record
	dropped atomic.Int64
	done    chan struct{}
	err     error // set before done is closed

	// Requests from other goroutines, applied by the training goroutine between steps.
	mu       sync.Mutex
	pending  run.Config // the configuration with every accepted change
	changes  []change
	paused   bool
	stopReq  bool
	ckptReq  bool
	ended    bool
	wake     chan struct{} // signalled on every request; the paused loop sleeps on it
	stopFlag atomic.Bool   // Stop, for long computations to poll

	statusMu sync.Mutex
	status   run.Status
	waitDone atomic.Int64 // status.Wait.Done, counted by the computation waited on
	// waiting reports that the training goroutine waits for the references solved beside it.
	waiting atomic.Bool

	// Owned by the training goroutine. cfg's task and model are resolved once, here; its live
	// fields change with Set.
	cfg run.Spec
	// device names where the learner computes (the start record's).
	device   string
	core     *loop
	step     int
	clock    runClock
	best     *checkpoint.BestEval
	lastEval int
	interval checkpoint.Interval
	// dirty reports changes since checkpoints/last was written; lastCkpt is when it was, and
	// ckptCost how long writing it took.
	dirty    bool
	lastCkpt time.Time
	ckptCost time.Duration
	// early reports that checkpoints/last is an early one, without the replay buffer.
	early bool
	// start is the configuration the run started with (config.json), the run's identity.
	start run.Config
	// dev is where the learner computes, and the learner that validates at another size.
	dev *device.Device
	// valEnv is the task at the validation's size (cfg.ValidationN()); valLearner, built at the
	// first validation where that is not N, holds the run's parameters in networks of that size.
	valEnv     envs.Env
	valLearner learn.Learner
	// val is the validation set; its Ref is nil while refs solves it beside training.
	val  *eval.Set
	refs *refSolve
	// unfilled reports validations in the run's history made before their references, which no
	// references event has completed yet.
	unfilled bool

	metrics *os.File
	logFile *os.File
	log     *log.Logger
	ioErr   error
	stepSec float64 // smoothed seconds per step
}

// runClock measures training time across pauses and resumes.
type runClock struct {
	base    float64
	since   time.Time
	running bool
}

func (c *runClock) start() {
	if !c.running {
		c.since, c.running = time.Now(), true
	}
}

func (c *runClock) stop() {
	if c.running {
		c.base += time.Since(c.since).Seconds()
		c.running = false
	}
}

func (c *runClock) total() float64 {
	if c.running {
		return c.base + time.Since(c.since).Seconds()
	}
	return c.base
}

// newTrainer opens the run directory's metrics and log files and builds the engine around a
// learner, built on dev, and a loop; state comes from a checkpoint on resume (h not nil), and
// history, the records the run kept from before, waits first on the Records stream.
func newTrainer(dir string, cfg run.Spec, dev *device.Device, core *loop, h *checkpoint.Header, history []run.Record) (*trainer, error) {
	c := cfg.Config
	metrics, err := os.OpenFile(filepath.Join(dir, run.MetricsFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(dir, run.LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		metrics.Close()
		return nil, err
	}
	t := &trainer{
		info: run.RunInfo{
			Model: cfg.Entry.Title, Title: run.Title(c),
			Backend: learn.Where(cfg, core.learner, dev), Dir: dir, Seed: cfg.Seed, BufferCapacity: core.replay.Cap(),
			History: len(history),
		},
		dir: dir, records: make(chan run.Record, recordBuffer+len(history)), done: make(chan struct{}),
		pending: c, wake: make(chan struct{}, 1),
		cfg: cfg, device: learn.DeviceName(cfg, core.learner, dev), dev: dev, core: core, valEnv: core.env,
		lastEval: -1, dirty: true, lastCkpt: time.Now(),
		metrics: metrics, logFile: logFile, log: log.New(logFile, "", log.LstdFlags),
	}
	for _, r := range history {
		t.records <- r
	}
	t.unfilled = unfilled(history)
	if h != nil {
		t.step, t.best, t.lastEval, t.interval = h.Step, h.Best, h.LastEval, h.Interval
		t.clock.base = h.Wall
		t.dirty = false
	}
	t.status = run.Status{State: run.StateStarting, Step: t.step, TotalSteps: cfg.Steps,
		Epoch: float64(t.step) / float64(cfg.StepsPerEpoch())}
	return t, nil
}

// Info describes the run.
func (t *trainer) Info() run.RunInfo { return t.info }

// Config returns the configuration in force, live changes included (a change accepted by Set
// shows here at once and takes effect at the next step).
func (t *trainer) Config() run.Config {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.pending
}

// Status returns the run's progress.
func (t *trainer) Status() run.Status {
	t.statusMu.Lock()
	s := t.status
	t.statusMu.Unlock()
	s.Dropped = t.dropped.Load()
	if s.Wait.What != "" {
		s.Wait.Done = int(t.waitDone.Load())
		s.Wait.Background = s.Wait.Background && !t.waiting.Load()
	}
	return s
}

// Records streams the run's records; see Engine.
func (t *trainer) Records() <-chan run.Record { return t.records }

// Done is closed when the run has ended.
func (t *trainer) Done() <-chan struct{} { return t.done }

// Err is the error that ended the run, if any.
func (t *trainer) Err() error {
	select {
	case <-t.done:
		return t.err
	default:
		return nil
	}
}

func (t *trainer) setState(s run.State) {
	t.statusMu.Lock()
	t.status.State = s
	t.statusMu.Unlock()
}

// stepDone updates the status after a step that took sec seconds.
func (t *trainer) stepDone(sec float64) {
	if t.stepSec == 0 {
		t.stepSec = sec
	} else {
		t.stepSec += rateSmoothing * (sec - t.stepSec)
	}
	t.statusMu.Lock()
	defer t.statusMu.Unlock()
	t.status.Step = t.step
	t.status.TotalSteps = t.cfg.Steps
	t.status.Epoch = float64(t.step) / float64(t.cfg.StepsPerEpoch())
	if t.stepSec > 0 {
		t.status.StepsPerSec = 1 / t.stepSec
		t.status.ETA = time.Duration(float64(t.cfg.Steps-t.step) * t.stepSec * float64(time.Second))
	}
}

// run is the training goroutine.
func (t *trainer) run() {
	stopped, err := t.execute()
	if err == nil {
		err = t.ioErr
	}
	t.clock.stop()
	t.endRefs()
	learn.Release(t.core.learner) // the last checkpoint is written: nothing reads it again
	state := run.StateDone
	switch {
	case err != nil:
		state = run.StateFailed
		t.event(&run.Event{Event: run.EventError, Message: err.Error()})
	case stopped:
		state = run.StateStopped
	}
	t.mu.Lock()
	t.ended = true
	t.mu.Unlock()
	t.err = err
	t.setState(state)
	t.metrics.Close()
	t.logFile.Close()
	// The lock goes before the records end, so whoever reads the end may open the run again.
	t.lock.Release()
	close(t.records)
	close(t.done)
}

// execute runs the whole of the run: references, training steps with their logs, evaluations
// and checkpoints, then the test. It reports whether a Stop ended it early.
func (t *trainer) execute() (stopped bool, err error) {
	t.log.Printf("%s, seed %d, %d steps (%d per epoch), backend %s, replay capacity %d transitions (%d MB)",
		t.info.Title, t.cfg.Seed, t.cfg.Steps, t.cfg.StepsPerEpoch(), t.info.Backend, t.info.BufferCapacity,
		int64(t.info.BufferCapacity)*replay.TransitionBytes(t.cfg.N)>>20)
	if stop, err := t.stopOnStopped(t.openValidation()); stop || err != nil {
		return stop, err
	}
	msg := fmt.Sprintf("%s, replay capacity %d", t.info.Title, t.info.BufferCapacity)
	if n := t.valEnv.N(); n != t.cfg.N {
		msg += fmt.Sprintf(", validated at n = %d", n)
	}
	if kind, choice := run.RecipeChoice(t.cfg.Config); kind != "" {
		msg += fmt.Sprintf(", recipe %s on %s: %s", t.cfg.Recipe, kind, choice) // --data alone chose the model
	}
	// A resume from an early checkpoint refills an empty buffer; at step 0 the buffer was empty
	// anyway, so only a later one departs from the uninterrupted run.
	resumedEarly := t.step > 0 && t.early
	switch {
	case resumedEarly:
		msg = fmt.Sprintf("%s, resumed at step %d from an early checkpoint, without the replay buffer", msg, t.step)
	case t.step > 0:
		msg = fmt.Sprintf("%s, resumed at step %d", msg, t.step)
	}
	start := &run.Event{Event: run.EventStart, Message: msg,
		RunID: checkpoint.RunID(t.start), ResumedEarly: resumedEarly, Device: t.device}
	if t.val.Ref != nil {
		start.References = t.val.Ref.References
	}
	t.event(start)
	if t.val.Ref != nil && t.unfilled {
		t.referencesReady() // for the history's validations that were made before them
	}
	t.setState(run.StateTraining)
	t.clock.start()
	// Every run evaluates its untrained policy first, so that each curve starts at step 0.
	if t.step == 0 && t.lastEval < 0 {
		if stop, err := t.stopOnStopped(t.validate()); stop || err != nil {
			return stop, err
		}
	}
	// Written after that validation, so that a resume from it does not repeat it (a stop during
	// it writes the full checkpoint: a fresh trainer is dirty).
	if err := t.checkpointEarlyIfNone(); err != nil {
		return false, err
	}
	if stop, err := t.validateInterrupted(); stop || err != nil {
		return stop, err
	}
	for t.step < t.cfg.Steps {
		stop, err := t.boundary()
		if err != nil || stop {
			return stop, err
		}
		began := time.Now()
		res, err := t.core.step(t.step, &t.cfg)
		if err != nil {
			return false, err
		}
		sec := time.Since(began).Seconds()
		t.step++
		t.dirty = true
		t.interval.Add(&res.stats, res.rewards, sec)
		t.stepDone(sec)
		// The last step also summarises a partial interval, so that a run shorter than its log
		// interval has a summary. That interval stays open: a continued run's next summary is
		// the uninterrupted run's, this one an extra record at the old end, as the validation
		// of the last step is.
		if full := t.step%t.cfg.LogEvery == 0; full || t.step == t.cfg.Steps {
			t.emit(run.Record{Kind: run.KindTrain, Train: t.interval.Record(learn.HyperAt(&t.cfg, t.step-1))})
			if full {
				t.interval = checkpoint.Interval{}
			}
		}
		if t.step%t.cfg.EvalEvery == 0 || t.step == t.cfg.Steps {
			if stop, err := t.stopOnStopped(t.validate()); stop || err != nil {
				return stop, err
			}
		}
		if t.ioErr != nil {
			return false, t.ioErr
		}
	}
	if t.dirty {
		if err := t.checkpointLast(); err != nil {
			return false, err
		}
	}
	// A finished run's records are complete: the validations made before the references get
	// them before the test.
	if stop, err := t.stopOnStopped(t.takeRefs(true)); stop || err != nil {
		return stop, err
	}
	return t.test()
}

// validate evaluates the policy on the validation set, keeps the best parameters, and writes
// the periodic checkpoint when it is due.
func (t *trainer) validate() error {
	if err := t.takeRefs(false); err != nil {
		return err
	}
	h := learn.HyperAt(&t.cfg, t.step)
	l, err := t.validationLearner()
	if err != nil {
		return fmt.Errorf("step %d: validation: %w", t.step, err)
	}
	l = stoppable{l, &t.stopFlag}
	ev, err := eval.Evaluate(l, t.valEnv, t.val, h, true)
	if err != nil {
		return fmt.Errorf("step %d: validation: %w", t.step, err)
	}
	ev.RefsPending = t.val.Ref == nil
	if k := t.cfg.ValDecodes(); k > 1 {
		if ev.Sampled, err = eval.SampledEval(l, t.cfg.Entry, t.valEnv, t.val, h, k, t.cfg.Seed); err != nil {
			return fmt.Errorf("step %d: sampled validation: %w", t.step, err)
		}
	}
	if t.valEnv.N() != t.cfg.N {
		dropSampleMs(ev)
	}
	t.lastEval = t.step
	if t.best == nil || eval.Better(t.valEnv, ev.Metric, t.best.Metric) {
		ev.Best = true
		t.best = &checkpoint.BestEval{Step: t.step, Metric: ev.Metric}
		params, err := t.core.learner.MarshalBinary()
		if err != nil {
			return err
		}
		if err := checkpoint.Write(filepath.Join(t.dir, run.BestCheckpoint), t.header(false), params, nil); err != nil {
			return fmt.Errorf("writing the best checkpoint: %w", err)
		}
	}
	t.emit(run.Record{Kind: run.KindEval, Eval: ev})
	since := time.Since(t.lastCkpt)
	// At step 0 the buffer is empty, so the early checkpoint written after it is as good.
	cheap := t.dirty && t.step > 0 && t.core.replay.EncodedLen() <= cheapReplayBytes && since >= checkpointCostRatio*t.ckptCost
	if since >= checkpointEvery || cheap {
		return t.checkpointLast()
	}
	if t.early {
		return t.checkpointEarly()
	}
	return nil
}

// header is the checkpoint header of the run's current state; full adds what only a resume
// needs.
func (t *trainer) header(full bool) *checkpoint.Header {
	start := t.start
	h := &checkpoint.Header{Config: t.cfg.Config, Step: t.step, Wall: t.clock.total(), Best: t.best, LastEval: t.lastEval,
		RunID: checkpoint.RunID(start), Start: &start}
	if full {
		h.Interval = t.interval
		// PCG's MarshalBinary cannot fail.
		h.RNG, _ = t.core.pcg.MarshalBinary()
	}
	return h
}

// checkpointLast writes checkpoints/last, after checking that the learner still produces
// finite actions and values, so a diverged run never overwrites a good checkpoint.
func (t *trainer) checkpointLast() error {
	began := time.Now()
	if t.val != nil {
		k := min(eval.SampleCount, len(t.val.Insts))
		probe := &eval.Set{Split: envs.Validation, Facts: t.val.Facts, Insts: t.val.Insts[:k], States: t.val.States, Ref: t.val.Ref}
		l, err := t.validationLearner()
		if err == nil {
			_, err = eval.Evaluate(l, t.valEnv, probe, learn.HyperAt(&t.cfg, t.step), true)
		}
		if err != nil {
			return fmt.Errorf("step %d: checkpoint refused: %w", t.step, err)
		}
	}
	params, err := t.core.learner.MarshalBinary()
	if err != nil {
		return err
	}
	if err := checkpoint.Write(filepath.Join(t.dir, run.LastCheckpoint), t.header(true), params, t.core.replay); err != nil {
		return fmt.Errorf("writing the checkpoint: %w", err)
	}
	t.dirty, t.lastCkpt, t.ckptCost, t.early = false, time.Now(), time.Since(began), false
	t.event(&run.Event{Event: run.EventCheckpoint, Message: fmt.Sprintf("%s at step %d", run.LastCheckpoint, t.step)})
	return nil
}

// stopNow ends the run on a Stop: a checkpoint if anything changed since the last, and the
// stop event.
func (t *trainer) stopNow() error {
	if t.dirty {
		if err := t.checkpointLast(); err != nil {
			return err
		}
	}
	t.event(&run.Event{Event: run.EventStop, Message: fmt.Sprintf("stopped at step %d of %d", t.step, t.cfg.Steps)})
	return nil
}

// test scores the best checkpoint on the whole test set, once, and ends the run.
func (t *trainer) test() (stopped bool, err error) {
	set, err := t.prepareTest()
	if errors.Is(err, eval.ErrStopped) {
		return true, t.stopNow()
	}
	if err != nil {
		return false, err
	}
	ck, err := checkpoint.Open(filepath.Join(t.dir, run.BestCheckpoint))
	if err != nil {
		return false, err
	}
	ck.Close()
	if err := t.core.learner.UnmarshalBinary(ck.Learner); err != nil {
		return false, fmt.Errorf("loading the best checkpoint: %w", err)
	}
	// The checkpoint was read back: its configuration, the run's at its step, is checked again.
	best, err := t.cfg.With(ck.Header.Config)
	if err != nil {
		return false, fmt.Errorf("the best checkpoint: %w", err)
	}
	ev, err := eval.Evaluate(t.interruptible(), t.core.env, set, learn.HyperAt(&best, ck.Header.Step), false)
	if errors.Is(err, eval.ErrStopped) {
		return true, t.stopNow()
	}
	if err != nil {
		return false, fmt.Errorf("test: %w", err)
	}
	res := run.Result{Step: t.step, BestStep: ck.Header.Step, Test: ev}
	if err := run.WriteJSONAtomic(filepath.Join(t.dir, run.ResultFile), res); err != nil {
		return false, err
	}
	t.emit(run.Record{Kind: run.KindEval, Eval: ev})
	t.event(&run.Event{Event: run.EventDone, Message: fmt.Sprintf("test %s %.6g (best validation at step %d)",
		ev.MetricName, ev.Metric, ck.Header.Step)})
	return false, nil
}

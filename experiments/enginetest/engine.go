// Package enginetest provides a scripted run.Engine for testing the console and the ablation
// runner without training anything. It emits the records a run would (a start event with
// references, train summaries, validation evaluations with the Q scatter and samples, events),
// on a synthetic learning curve, and honours every control as run.Engine documents it. Like
// net/http/httptest, it is a production package so that tests of several packages can share it.
package enginetest

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	"spg-tui/run"
)

// Options tune a scripted engine.
type Options struct {
	// StepDelay is the wall time of one step; 0 steps as fast as the scheduler allows.
	StepDelay time.Duration
	// Buffer is the capacity of Records (64 when 0).
	Buffer int
	// Curve is the validation metric at a step; nil uses Metric.
	Curve func(cfg run.Config, step int) float64
	// Info overrides the run description when its Title is set.
	Info run.RunInfo
}

// Engine is a scripted training run. It is safe for concurrent use.
type Engine struct {
	opts    Options
	info    run.RunInfo
	records chan run.Record
	done    chan struct{}
	wake    chan struct{}
	metrics *os.File // metrics.jsonl in the run directory, nil without one

	mu      sync.Mutex
	cfg     run.Config
	status  run.Status
	paused  bool
	stop    bool
	ckpt    bool
	pending []run.Event // set events, reported at the next step boundary
	err     error
	rng     *rand.Rand
}

// Start validates cfg and starts a scripted run writing into dir (metrics.jsonl and
// checkpoints/last); an empty dir writes nothing: an experiments.StartFunc.
func Start(cfg run.Config, dir string) (run.Engine, error) {
	return New(cfg, dir, Options{})
}

// New is Start with options.
func New(cfg run.Config, dir string, opts Options) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if opts.Buffer <= 0 {
		opts.Buffer = 64
	}
	if opts.Curve == nil {
		opts.Curve = Metric
	}
	info := opts.Info
	if info.Title == "" {
		info = run.RunInfo{Model: run.ModelTitle(cfg), Backend: "scripted", Seed: cfg.Seed, Title: run.Title(cfg)}
	}
	info.Dir = dir
	e := &Engine{
		opts: opts, info: info, cfg: cfg,
		records: make(chan run.Record, opts.Buffer),
		done:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		rng:     rand.New(rand.NewPCG(cfg.Seed, 7)),
		status:  run.Status{State: run.StateStarting, TotalSteps: cfg.Steps},
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(filepath.Join(dir, "metrics.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
		e.metrics = f
	}
	go e.loop()
	return e, nil
}

// Info implements run.Engine.
func (e *Engine) Info() run.RunInfo { return e.info }

// Config implements run.Engine.
func (e *Engine) Config() run.Config {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg
}

// Status implements run.Engine.
func (e *Engine) Status() run.Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status
}

// Records implements run.Engine.
func (e *Engine) Records() <-chan run.Record { return e.records }

// Pause implements run.Engine.
func (e *Engine) Pause() {
	e.mu.Lock()
	e.paused = true
	e.mu.Unlock()
}

// Resume implements run.Engine.
func (e *Engine) Resume() {
	e.mu.Lock()
	e.paused = false
	e.mu.Unlock()
	e.poke()
}

// Checkpoint implements run.Engine.
func (e *Engine) Checkpoint() {
	e.mu.Lock()
	e.ckpt = true
	e.mu.Unlock()
	e.poke()
}

// Stop implements run.Engine.
func (e *Engine) Stop() {
	e.mu.Lock()
	e.stop = true
	e.mu.Unlock()
	e.poke()
}

// Done implements run.Engine.
func (e *Engine) Done() <-chan struct{} { return e.done }

// Err implements run.Engine.
func (e *Engine) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// Set implements run.Engine: the change is validated by run.Change, as the trainer does, put
// into force at once and reported at the next step boundary.
func (e *Engine) Set(param string, value float64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, old, err := run.Change(e.cfg, param, value, e.status.Step)
	if err != nil {
		return err
	}
	e.cfg = c
	e.pending = append(e.pending, run.Event{Event: run.EventSet, Param: param, Old: old, New: value})
	return nil
}

// epsilon is the exploration probability at the current step; e.mu is held.
func (e *Engine) epsilon() float64 {
	if !e.cfg.Exploration {
		return 0
	}
	return e.cfg.Epsilon(e.status.Step)
}

// emit sends r without ever blocking, counting it as dropped when the reader is behind, and
// appends it to metrics.jsonl.
func (e *Engine) emit(r run.Record) {
	if e.metrics != nil {
		if b, err := json.Marshal(r); err == nil {
			e.metrics.Write(append(b, '\n'))
		}
	}
	select {
	case e.records <- r:
	default:
		e.mu.Lock()
		e.status.Dropped++
		e.mu.Unlock()
	}
}

func (e *Engine) event(step int, wall float64, ev run.Event) {
	e.emit(run.Record{Kind: run.KindEvent, Step: step, Wall: wall, Event: &ev})
}

func (e *Engine) loop() {
	defer close(e.done)
	defer close(e.records) // after the last record, before done
	if e.metrics != nil {
		defer e.metrics.Close()
	}
	start := time.Now()
	wall := func() float64 { return time.Since(start).Seconds() }
	cfg := e.Config()
	e.event(0, 0, run.Event{Event: run.EventStart, References: References(cfg.Task, cfg.N)})
	e.mu.Lock()
	e.status.State = run.StateTraining
	e.mu.Unlock()
	for {
		e.mu.Lock()
		step, stop, ckpt, paused, total := e.status.Step, e.stop, e.ckpt, e.paused, e.cfg.Steps
		pending := e.pending
		e.pending, e.ckpt = nil, false
		e.mu.Unlock()
		for _, ev := range pending {
			e.event(step, wall(), ev)
		}
		if ckpt || stop {
			if err := e.checkpoint(step); err != nil {
				e.fail(step, wall(), err)
				return
			}
			e.event(step, wall(), run.Event{Event: run.EventCheckpoint, Message: "checkpoints/last"})
		}
		if stop {
			e.setState(run.StateStopped)
			e.event(step, wall(), run.Event{Event: run.EventStop})
			return
		}
		if step >= total {
			e.finish(step, wall())
			return
		}
		if paused {
			e.setState(run.StatePaused)
			<-e.wake
			e.setState(run.StateTraining)
			continue
		}
		e.step(step+1, wall())
		if e.opts.StepDelay > 0 {
			time.Sleep(e.opts.StepDelay)
		}
	}
}

func (e *Engine) setState(s run.State) {
	e.mu.Lock()
	e.status.State = s
	e.mu.Unlock()
}

func (e *Engine) fail(step int, wall float64, err error) {
	e.mu.Lock()
	e.err, e.status.State = err, run.StateFailed
	e.mu.Unlock()
	e.event(step, wall, run.Event{Event: run.EventError, Message: err.Error()})
}

func (e *Engine) finish(step int, wall float64) {
	cfg := e.Config()
	ev := run.Eval{Split: "test", MetricName: MetricName(cfg.Task), Metric: e.opts.Curve(cfg, step)}
	e.emit(run.Record{Kind: run.KindEval, Step: step, Wall: wall, Eval: &ev})
	e.setState(run.StateDone)
	e.event(step, wall, run.Event{Event: run.EventDone})
}

func (e *Engine) checkpoint(step int) error {
	if e.info.Dir == "" {
		return nil
	}
	dir := filepath.Join(e.info.Dir, "checkpoints")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(struct {
		Step   int        `json:"step"`
		Config run.Config `json:"config"`
	}{step, e.Config()})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "last"), b, 0o644)
}

// step completes step s and reports what falls due at it.
func (e *Engine) step(s int, wall float64) {
	e.mu.Lock()
	e.status.Step = s
	e.status.Epoch = float64(s) / float64(e.cfg.StepsPerEpoch())
	if wall > 0 {
		e.status.StepsPerSec = float64(s) / wall
		e.status.ETA = time.Duration(float64(e.cfg.Steps-s) / e.status.StepsPerSec * float64(time.Second))
	}
	cfg, eps := e.cfg, e.epsilon()
	e.mu.Unlock()
	if s%cfg.LogEvery == 0 || s == cfg.Steps { // the last step summarises a partial interval, as a trainer's does
		e.emit(run.Record{Kind: run.KindTrain, Step: s, Wall: wall, Train: e.train(cfg, s, eps)})
	}
	if s%cfg.EvalEvery == 0 || s == cfg.Steps {
		e.emit(run.Record{Kind: run.KindEval, Step: s, Wall: wall, Eval: e.eval(cfg, s)})
	}
}

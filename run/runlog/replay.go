package runlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"spg-tui/run"
)

// WriterCheckInterval is how often a replay looks whether the run's trainer is still alive and
// whether a resume has replaced metrics.jsonl.
const WriterCheckInterval = time.Second

// ErrReadOnly refuses changes to a run opened read-only.
var ErrReadOnly = errors.New("read-only view: the run cannot be changed")

// Replay is the engine of a run opened read-only (--view): it serves the records of the run's
// metrics.jsonl, following the file while the run's trainer writes it, and refuses every
// change.
type Replay struct {
	info   run.RunInfo
	cfg    run.Config
	status run.Status
	tail   *metricsTail
	// writer is the PID of the live process holding the run directory's lock, 0 when none.
	writer      int
	checkedAt   time.Time
	prev        run.Record // the last training summary, for the rate
	closed      chan run.Record
	done        chan struct{}
	damagedSeen int
	// mu orders Stop, which the console calls from a command's goroutine, with Tail: no read
	// of the closed file after Stop.
	mu      sync.Mutex
	stopped bool
}

// Open opens the run in dir read-only; Tail reads its records.
func Open(dir string) (*Replay, error) {
	cfg, err := run.ReadRunConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	tail, err := openMetricsTail(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	r := &Replay{cfg: cfg, tail: tail, closed: make(chan run.Record), done: make(chan struct{})}
	close(r.closed)
	r.info = run.RunInfo{Model: run.ModelTitle(cfg), Title: run.Title(cfg), Dir: dir, Seed: cfg.Seed}
	r.status = run.Status{State: run.StateStopped, TotalSteps: cfg.Steps}
	r.checkWriter(time.Now())
	return r, nil
}

// Tail hands fn the records written since the last call, at most max of them, and the warning
// of the damaged lines met on the way. When a resume has rewritten metrics.jsonl (dropping the
// records after its checkpoint) it reopens the file and reports restart without reading: the
// reader forgets what it was told and reads the run again from its first record.
func (r *Replay) Tail(max int, fn func(run.Record)) (restart bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return false, nil
	}
	if now := time.Now(); now.Sub(r.checkedAt) >= WriterCheckInterval {
		r.checkWriter(now)
		if r.tail.replaced() {
			t, err := openMetricsTail(r.tail.path)
			if err != nil {
				return false, err
			}
			r.tail.close()
			r.tail, r.damagedSeen, r.prev = t, 0, run.Record{}
			r.status = run.Status{State: run.StateStopped, TotalSteps: r.cfg.Steps}
			return true, nil
		}
	}
	err = r.tail.read(max, func(rec run.Record) {
		r.take(rec)
		fn(rec)
	})
	if d := r.tail.damaged; d > r.damagedSeen {
		r.damagedSeen = d
		fn(run.Record{Kind: run.KindEvent, Step: r.status.Step, Event: &run.Event{Event: run.EventWarning,
			Message: damagedText(r.tail.firstDamaged, d)}})
	}
	return false, err
}

// take updates the status with one record.
func (r *Replay) take(rec run.Record) {
	s := &r.status
	s.Step = max(s.Step, rec.Step)
	s.Epoch = float64(s.Step) / float64(r.cfg.StepsPerEpoch())
	switch {
	case rec.Kind == run.KindTrain && rec.Train != nil:
		if p := r.prev; p.Train != nil && rec.Wall > p.Wall && rec.Step > p.Step {
			s.StepsPerSec = float64(rec.Step-p.Step) / (rec.Wall - p.Wall)
		} else {
			s.StepsPerSec = rec.Train.StepsPerSec
		}
		if s.StepsPerSec > 0 && s.TotalSteps > s.Step {
			s.ETA = time.Duration(float64(s.TotalSteps-s.Step) / s.StepsPerSec * float64(time.Second))
		}
		r.prev = rec
	case rec.Kind == run.KindEvent && rec.Event != nil:
		switch rec.Event.Event {
		case run.EventDone:
			s.State, s.ETA, r.writer = run.StateDone, 0, 0
		case run.EventError:
			s.State, r.writer = run.StateFailed, 0
		case run.EventStart:
			s.State = run.StateStopped
		}
	}
}

// checkWriter looks for the process holding the run directory's lock: the PID its lock file
// names, if that process is alive. A run that has ended has no writer.
func (r *Replay) checkWriter(now time.Time) {
	r.checkedAt = now
	r.writer = 0
	if r.status.State == run.StateDone || r.status.State == run.StateFailed {
		return
	}
	pid := run.LockHolder(r.info.Dir)
	if pid > 0 && (unix.Kill(pid, 0) == nil || unix.Kill(pid, 0) == unix.EPERM) {
		r.writer = pid
	}
}

// Writer is the PID of the process training the run, 0 when none does.
func (r *Replay) Writer() int { return r.writer }

// Info, Config, Status, Records, Pause, Resume, Checkpoint, Set, Done and Err implement
// run.Engine for a run that trains nothing here: Records is closed (Tail serves the records),
// and Set is refused.
func (r *Replay) Info() run.RunInfo          { return r.info }
func (r *Replay) Config() run.Config         { return r.cfg }
func (r *Replay) Status() run.Status         { return r.status }
func (r *Replay) Records() <-chan run.Record { return r.closed }
func (r *Replay) Pause()                     {}
func (r *Replay) Resume()                    {}
func (r *Replay) Checkpoint()                {}
func (r *Replay) Set(string, float64) error  { return ErrReadOnly }
func (r *Replay) Done() <-chan struct{}      { return r.done }
func (r *Replay) Err() error                 { return nil }

// Stop closes the file; the view is done at once, since it trains nothing.
func (r *Replay) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped {
		r.stopped = true
		r.tail.close()
		close(r.done)
	}
}

// damagedText names the first damaged line of metrics.jsonl and how many were skipped.
func damagedText(first, count int) string {
	return fmt.Sprintf("%s line %d is damaged and was skipped (%d in all)", run.MetricsFile, first, count)
}

// Started reports whether the run in dir has begun writing its records.
func Started(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, run.MetricsFile))
	return err == nil
}

// Every replay is an engine.
var _ run.Engine = (*Replay)(nil)

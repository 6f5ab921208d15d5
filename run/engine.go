package run

import "time"

// State is where a training run stands.
type State int

// The states of a run.
const (
	StateStarting State = iota
	StateTraining
	StatePaused
	StateStopped // stopped by request before its last step; resumable
	StateDone    // reached its last step and was scored on the test set
	StateFailed  // stopped by an error (see Engine.Err)
)

func (s State) String() string {
	return [...]string{"starting", "training", "paused", "stopped", "done", "failed"}[s]
}

// Status is a cheap snapshot of a run's progress.
type Status struct {
	State       State
	Step        int     // steps completed
	TotalSteps  int     // the run's last step
	Epoch       float64 // Step / steps per epoch
	StepsPerSec float64 // recent rate
	ETA         time.Duration
	// Dropped counts records a slow reader of Records missed (they are still in metrics.jsonl).
	Dropped int64
	// Wait is the long preparation under way (What is "" while there is none).
	Wait Wait
}

// RunInfo describes a run; it does not change while the run goes on.
type RunInfo struct {
	Model   string // the model's title: "SPG+Matching"
	Title   string // e.g. "SPG+Matching · MWM-20"
	Backend string // where the learner computes: the GPU, or the BLAS and why not the GPU (learn.Where)
	Dir     string // run directory
	Seed    uint64
	// BufferCapacity is the replay buffer's capacity after the memory budget was applied.
	BufferCapacity int
	// History is how many records at the head of Records a resumed run kept from before this
	// session (0 for a fresh run); a reader that has shown them already skips them.
	History int
}

// Engine is a training run in its own goroutine, as the console drives it. Every method returns
// at once: requests are applied between training steps and reported as event records, and the
// run never waits for a reader of Records.
type Engine interface {
	// Info describes the run.
	Info() RunInfo
	// Config returns the configuration in force, live changes included.
	Config() Config
	// Status returns the run's progress.
	Status() Status
	// Records streams train, eval and event records through a bounded buffer; when the reader
	// falls behind, records are dropped (counted in Status.Dropped), never waited for. A resumed
	// run first sends the records it kept from before (its metrics.jsonl). The channel is closed
	// after the run's last record, before Done is closed; read it with Drain or Follow.
	Records() <-chan Record
	// Pause and Resume hold and release training between steps.
	Pause()
	Resume()
	// Checkpoint asks for checkpoints/last to be written at the next step boundary.
	Checkpoint()
	// Set changes a live parameter (see Params), a switch to 1 (on) or 0 (off); it is the one
	// way a live value changes. The value is validated at once, by Change: an invalid one, or a
	// parameter the run's model does not read, is refused with an error naming the parameter,
	// and the old value stays.
	Set(param string, value float64) error
	// Stop asks the run to checkpoint and end; Done is closed once it has.
	Stop()
	Done() <-chan struct{}
	// Err is the error that ended the run, if any (valid after Done is closed).
	Err() error
}

// Drain hands fn the records waiting on recs, at most max of them (all when max <= 0), without
// waiting for more. It reports whether the stream is still open: false once recs is closed and
// read to its end. A reader that must not block (the console, once per frame) calls it.
func Drain(recs <-chan Record, max int, fn func(Record)) (open bool) {
	for n := 0; max <= 0 || n < max; n++ {
		select {
		case r, ok := <-recs:
			if !ok {
				return false
			}
			fn(r)
		default:
			return true
		}
	}
	return true
}

// Follow hands fn every record of recs until the engine closes it after its last record. A
// reader that has nothing else to do (the headless train command, the experiment runner)
// calls it.
func Follow(recs <-chan Record, fn func(Record)) {
	for r := range recs {
		fn(r)
	}
}

package ui

import (
	"fmt"
	"path/filepath"

	"spg-tui/run"
)

// replay is the engine of a run opened read-only (--view): it serves the records of the run's
// metrics.jsonl and refuses every change.
type replay struct {
	info    run.RunInfo
	cfg     run.Config
	status  run.Status
	records chan run.Record
	done    chan struct{}
}

// openReplay reads the run in dir.
func openReplay(dir string) (*replay, error) {
	recs, damaged, err := run.ReadRecordsSkipping(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	if len(damaged) > 0 {
		recs = append(recs, damagedWarning(recs, damaged))
	}
	cfg, err := run.ReadRunConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	r := &replay{cfg: cfg, records: make(chan run.Record, len(recs)), done: make(chan struct{})}
	r.info = run.RunInfo{Model: run.ModelTitle(cfg), Title: run.Title(cfg),
		Dir: dir, Seed: cfg.Seed}
	r.status = run.Status{State: run.StateStopped, TotalSteps: cfg.Steps}
	for _, rec := range recs {
		r.records <- rec
		r.status.Step = max(r.status.Step, rec.Step)
		if rec.Event != nil && rec.Kind == run.KindEvent {
			switch rec.Event.Event {
			case run.EventDone:
				r.status.State = run.StateDone
			case run.EventError:
				r.status.State = run.StateFailed
			}
		}
	}
	r.status.Epoch = float64(r.status.Step) / float64(cfg.StepsPerEpoch())
	close(r.records)
	close(r.done)
	return r, nil
}

func (r *replay) Info() run.RunInfo          { return r.info }
func (r *replay) Config() run.Config         { return r.cfg }
func (r *replay) Status() run.Status         { return r.status }
func (r *replay) Records() <-chan run.Record { return r.records }
func (r *replay) Pause()                     {}
func (r *replay) Resume()                    {}
func (r *replay) Checkpoint()                {}
func (r *replay) Set(string, float64) error  { return errReadOnly }
func (r *replay) Stop()                      {}
func (r *replay) Done() <-chan struct{}      { return r.done }
func (r *replay) Err() error                 { return nil }

// damagedWarning is the event that tells a viewer how many damaged lines of metrics.jsonl were
// skipped, and the first of them.
func damagedWarning(recs []run.Record, damaged []int) run.Record {
	step := 0
	if len(recs) > 0 {
		step = recs[len(recs)-1].Step
	}
	return run.Record{Kind: run.KindEvent, Step: step, Event: &run.Event{Event: run.EventWarning,
		Message: fmt.Sprintf("%s: skipped %d damaged line(s), the first at line %d", run.MetricsFile, len(damaged), damaged[0])}}
}

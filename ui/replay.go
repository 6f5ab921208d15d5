package ui

import (
	"fmt"
	"path/filepath"

	"spg-tui/agent"
)

// replay is the engine of a run opened read-only (--view): it serves the records of the run's
// metrics.jsonl and refuses every change.
type replay struct {
	info    agent.RunInfo
	cfg     agent.Config
	status  agent.Status
	records chan agent.Record
	done    chan struct{}
}

// openReplay reads the run in dir.
func openReplay(dir string) (*replay, error) {
	recs, damaged, err := agent.ReadRecordsSkipping(filepath.Join(dir, agent.MetricsFile))
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	if len(damaged) > 0 {
		recs = append(recs, damagedWarning(recs, damaged))
	}
	cfg, err := agent.ReadRunConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("view %s: %v", dir, err)
	}
	r := &replay{cfg: cfg, records: make(chan agent.Record, len(recs)), done: make(chan struct{})}
	r.info = agent.RunInfo{Model: agent.ModelName(cfg.Task), Title: agent.RunTitle(cfg.Task, cfg.N),
		Dir: dir, Seed: cfg.Seed}
	r.status = agent.Status{State: agent.StateStopped, TotalSteps: cfg.Steps}
	for _, rec := range recs {
		r.records <- rec
		r.status.Step = max(r.status.Step, rec.Step)
		if rec.Event != nil && rec.Kind == agent.KindEvent {
			switch rec.Event.Event {
			case agent.EventDone:
				r.status.State = agent.StateDone
			case agent.EventError:
				r.status.State = agent.StateFailed
			}
		}
	}
	r.status.Epoch = float64(r.status.Step) / float64(cfg.StepsPerEpoch())
	close(r.records)
	close(r.done)
	return r, nil
}

func (r *replay) Info() agent.RunInfo          { return r.info }
func (r *replay) Config() agent.Config         { return r.cfg }
func (r *replay) Status() agent.Status         { return r.status }
func (r *replay) Records() <-chan agent.Record { return r.records }
func (r *replay) Pause()                       {}
func (r *replay) Resume()                      {}
func (r *replay) Checkpoint()                  {}
func (r *replay) Set(string, float64) error    { return errReadOnly }
func (r *replay) SetFlag(string, bool) error   { return errReadOnly }
func (r *replay) Stop()                        {}
func (r *replay) Done() <-chan struct{}        { return r.done }
func (r *replay) Err() error                   { return nil }

// damagedWarning is the event that tells a viewer how many damaged lines of metrics.jsonl were
// skipped, and the first of them.
func damagedWarning(recs []agent.Record, damaged []int) agent.Record {
	step := 0
	if len(recs) > 0 {
		step = recs[len(recs)-1].Step
	}
	return agent.Record{Kind: agent.KindEvent, Step: step, Event: &agent.Event{Event: agent.EventWarning,
		Message: fmt.Sprintf("%s: skipped %d damaged line(s), the first at line %d", agent.MetricsFile, len(damaged), damaged[0])}}
}

package agent

import (
	"encoding/json"

	"spg-tui/run"
)

// emit sends rec to metrics.jsonl and, without blocking, to the Records stream; a record the
// stream has no room for is counted as dropped. The first write error is kept and ends the run
// at the next step boundary.
func (t *trainer) emit(rec run.Record) {
	rec.Step = t.step
	rec.Wall = t.clock.total()
	line, err := json.Marshal(rec)
	if err == nil {
		_, err = t.metrics.Write(append(line, '\n'))
	}
	if err != nil && t.ioErr == nil {
		t.ioErr = err
	}
	select {
	case t.records <- rec:
	default:
		t.dropped.Add(1)
	}
}

// event emits an event record and logs it to train.log.
func (t *trainer) event(ev *run.Event) {
	t.emit(run.Record{Kind: run.KindEvent, Event: ev})
	switch {
	case ev.Event == run.EventSet:
		t.log.Printf("step %d: set %s %g -> %g", t.step, ev.Param, ev.Old, ev.New)
	case ev.Message != "":
		t.log.Printf("step %d: %s: %s", t.step, ev.Event, ev.Message)
	default:
		t.log.Printf("step %d: %s", t.step, ev.Event)
	}
}

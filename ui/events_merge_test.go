package ui

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestPausedEditsMerge: + and - pressed while paused (the step stands still) used to log one
// "set" line each, pushing the older events out; a parameter's changes at one step are one
// line, from its first old value to its last new one, and one mark.
func TestPausedEditsMerge(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	for _, e := range []*run.Event{
		{Event: run.EventPause},
		{Event: run.EventSet, Param: run.ParamTau, Old: 0.1, New: 0.2},
		{Event: run.EventSet, Param: run.ParamSinkhornIters, Old: 10, New: 11},
		{Event: run.EventSet, Param: run.ParamTau, Old: 0.2, New: 0.5},
		{Event: run.EventSet, Param: run.ParamTau, Old: 0.5, New: 1},
		{Event: run.EventSet, Param: run.ParamSinkhornIters, Old: 11, New: 12},
	} {
		m.observe(run.Record{Kind: run.KindEvent, Step: 400, Event: e})
	}
	golden(t, "pane_events_paused_edits", strip(m.events.View()))
	var at400 []setMark
	for _, s := range m.ctx.data.sets {
		if s.step == 400 {
			at400 = append(at400, s)
		}
	}
	if len(at400) != 2 || at400[0].param != run.ParamTau || at400[0].old != 0.1 || at400[0].new != 1 ||
		at400[1].param != run.ParamSinkhornIters || at400[1].old != 10 || at400[1].new != 12 {
		t.Errorf("marks at step 400: %+v, want tau 0.1 → 1 then L 10 → 12", at400)
	}
}

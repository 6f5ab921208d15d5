package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/run"
)

// solvingFixture is the TSP-10 fixture as a run whose validation references are still being
// solved beside training: its start carries no references, its validations lack the samples'
// optima, and its status shows the solve. It returns the references event that ends the solve.
func solvingFixture(t *testing.T) (*model, run.Record) {
	t.Helper()
	cfg := tinyConfig(envs.TaskTSP, 10)
	_, recs := runScripted(t, cfg, "")
	m := fixture(t, envs.TaskTSP, 10, 120, 36)
	m.ctx.data = newRunData()
	refs := &run.Event{Event: run.EventReferences, Fill: &run.ReferenceFill{}}
	for _, r := range recs {
		switch {
		case r.Event != nil && r.Event.Event == run.EventStart:
			refs.References = r.Event.References
			e := *r.Event
			e.References = nil
			r.Event = &e
		case r.Eval != nil && r.Split == "val":
			ev := *r.Eval
			ev.RefsPending = true
			ev.Samples = slices.Clone(ev.Samples)
			refs.Fill.Samples = nil
			for i, s := range ev.Samples {
				refs.Fill.Samples = append(refs.Fill.Samples, run.SampleRef{Index: s.Index, Perm: s.OptPerm, Objective: s.OptObjective, Solver: s.OptSolverName})
				ev.Samples[i].OptPerm, ev.Samples[i].OptObjective, ev.Samples[i].OptSolverName = nil, 0, ""
			}
			r.Eval = &ev
		case r.Eval != nil || r.Event != nil && r.Event.Event == run.EventDone:
			continue // the test comes after the references
		}
		m.observe(r)
	}
	m.ctx.status.Wait = run.Wait{What: "solving the references of the validation set", Done: 19, Total: 1000, Background: true}
	m.ctx.waitLeft = 8*time.Minute + 13*time.Second
	return m, run.Record{Kind: run.KindEvent, Step: 400, Event: refs}
}

// TestScreenWhileReferencesSolve: a TSP-20 run used to show "solving the references …
// 19/1000 · ETA 8m13s" for minutes with every pane waiting for the first training summary. It
// trains at once: the header keeps the training's line and shows the solve under it, the
// curves draw without reference lines, and the sample has no optimum yet; the references
// event then brings the lines and the optimum.
func TestScreenWhileReferencesSolve(t *testing.T) {
	m, refs := solvingFixture(t)
	sc := screen(m)
	golden(t, "screen_refs_solving_120x36", sc)
	lines := strings.Split(sc, "\n")
	if !strings.Contains(lines[0], "● training") || !strings.Contains(lines[0], "step 400/1,000") ||
		!strings.Contains(lines[1], "solving the references of the validation set") || !strings.Contains(lines[1], "19/1000 · ETA 8m13s") {
		t.Errorf("header:\n%s\n%s", lines[0], lines[1])
	}
	if !strings.Contains(sc, "tour 3.08 · optimum being solved") {
		t.Error("the sample does not say that its optimum is being solved")
	}
	if strings.Contains(sc, "╌ optimal") {
		t.Error("a reference line is drawn before the references are solved")
	}
	press(m, "o") // no optimum to show yet: the policy's tour stays
	if !strings.Contains(strip(m.sample.View()), "policy tour") {
		t.Errorf("o without an optimum:\n%s", strip(m.sample.View()))
	}

	m.observe(refs)
	m.ctx.status.Wait = run.Wait{}
	sc = screen(m)
	for _, want := range []string{"╌ optimal", "vs opt", "optimal tour", "references solved", "recipe "} {
		if !strings.Contains(sc, want) {
			t.Errorf("after the references event the screen lacks %q:\n%s", want, sc)
		}
	}
	if ev, _ := m.ctx.data.vals.latest(); ev == nil || ev.RefsPending {
		t.Error("the latest validation was not completed")
	}
}

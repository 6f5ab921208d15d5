package ui

import (
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestGoldenFooter: a checkpoint's message used to shrink the key hints until help and quit
// were gone ("checkpoint written at step …  space pause …"); they must stay at every width.
func TestGoldenFooter(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := fixture(t, envs.TaskMWM, 10, w, 24)
		m.observe(run.Record{Kind: run.KindEvent, Step: 400, Event: &run.Event{Event: run.EventCheckpoint,
			Message: "checkpoints/last at step 400 (early: without the replay buffer)"}})
		f := strip(m.footer())
		golden(t, "footer_checkpoint_"+itoa(w), f)
		for _, hint := range []string{"? help", "q quit"} {
			if !strings.Contains(f, hint) {
				t.Errorf("width %d: the footer lacks %q: %q", w, hint, f)
			}
		}
	}
}

// TestCheckpointsTakeOneEventLine: the checkpoints written every few hundred steps used to fill
// half the events pane with "checkpoint: checkp…"; the latest replaces the one before.
func TestCheckpointsTakeOneEventLine(t *testing.T) {
	d := newRunData()
	d.addEvent(0, &run.Event{Event: run.EventStart})
	for step := 200; step <= 1000; step += 200 {
		d.addEvent(step, &run.Event{Event: run.EventCheckpoint, Message: "checkpoints/last at step " + itoa(step) + " (early: without the replay buffer)"})
		d.logf(step, "val ratio 0.9")
	}
	n := 0
	for _, e := range d.events {
		if strings.Contains(e, "checkpoint") {
			n++
			if !strings.Contains(e, "1,000") {
				t.Errorf("the checkpoint line is not the latest: %q", e)
			}
		}
	}
	if n != 1 || len(d.events) != 7 {
		t.Errorf("%d checkpoint lines in %d events, want 1 in 7: %q", n, len(d.events), d.events)
	}
}

// TestStartEventNamesDevice: the events say where each stretch of the run trains, and why on
// the CPU where the GPU was not used (they used to say "start" alone).
func TestStartEventNamesDevice(t *testing.T) {
	d := newRunData()
	d.addEvent(0, &run.Event{Event: run.EventStart, Device: "cpu (GPU not used: cuBLAS not found)"})
	d.addEvent(400, &run.Event{Event: run.EventStart})
	if len(d.events) != 2 || !strings.HasSuffix(d.events[0], "start on cpu (GPU not used: cuBLAS not found)") ||
		!strings.HasSuffix(d.events[1], "  start") {
		t.Errorf("events %q", d.events)
	}
}

// TestTypedValueReplacesCurrent: the prompt used to hold the current value with the cursor at
// its end, so typing 20 on L = 10 gave 1020 and a refusal; what is typed replaces the value, and
// enter on an empty prompt keeps it.
func TestTypedValueReplacesCurrent(t *testing.T) {
	m, e := liveModel(t, 120, 36)
	press(m, "down", "enter")
	if got := m.params.input.Placeholder; got != "10" {
		t.Errorf("placeholder %q, want the current value 10", got)
	}
	press(m, "2", "0", "enter")
	if m.msg.err || e.Config().SinkhornIters != 20 {
		t.Errorf("typing 20 on L = 10: L = %d, message %+v", e.Config().SinkhornIters, m.msg)
	}
	m.msg = status{}
	press(m, "enter", "enter")
	if m.msg.text != "" || m.params.editing {
		t.Errorf("enter on an empty prompt: %+v", m.msg)
	}
}

// TestFarewell: after q the terminal says where the run is and how to continue it.
func TestFarewell(t *testing.T) {
	info := run.RunInfo{Dir: "runs/mwm10-x"}
	got := farewell(info, run.Status{State: run.StateStopped, Step: 400, TotalSteps: 1000})
	if !strings.Contains(got, "runs/mwm10-x") || !strings.Contains(got, Command+" tui --resume runs/mwm10-x") {
		t.Errorf("farewell %q", got)
	}
	// Stopped after the last step, while its test set was scored: not "stopped at step 2000 of
	// 2000; continue", as if steps were left.
	got = farewell(info, run.Status{State: run.StateStopped, Step: 2000, TotalSteps: 2000})
	if want := "run stopped after its last step (2,000) but before its test score, in runs/mwm10-x; score it with: " +
		Command + " tui --resume runs/mwm10-x"; !strings.HasSuffix(got, want) {
		t.Errorf("farewell after the last step %q, want suffix %q", got, want)
	}
}

// TestConfirmationOutlivesCheckpoint: the answer to a key stays in the footer when a checkpoint
// is written a moment later (it used to be replaced at once); a later checkpoint replaces an
// earlier one.
func TestConfirmationOutlivesCheckpoint(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	checkpoint := func(step int) {
		m.observe(run.Record{Kind: run.KindEvent, Step: step, Event: &run.Event{Event: run.EventCheckpoint, Message: "checkpoints/last"}})
	}
	checkpoint(400)
	m.info("L (Sinkhorn) 10 → 11 from the next step")
	checkpoint(600)
	if !strings.Contains(m.footer(), "L (Sinkhorn) 10 → 11") {
		t.Errorf("the confirmation gave way to a checkpoint: %q", strip(m.footer()))
	}
	m.msg = status{}
	checkpoint(800)
	checkpoint(1000)
	if !strings.Contains(m.footer(), "checkpoint written at step 1,000") {
		t.Errorf("a checkpoint did not replace the one before: %q", strip(m.footer()))
	}
}

// TestCompactFooterShowsLatestEvent: at 80x24, which has no events pane, an idle footer shows the
// latest event; a message replaces it.
func TestCompactFooterShowsLatestEvent(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 80, 24)
	m.observe(run.Record{Kind: run.KindEvent, Step: 400, Event: &run.Event{Event: run.EventWarning, Message: "w"}})
	m.msg = status{}
	if f := strip(m.footer()); !strings.HasPrefix(f, "step 400  warning: w") {
		t.Errorf("idle footer at 80x24: %q", f)
	}
	m.info("tau 0.05 → 0.1 from the next step")
	if f := strip(m.footer()); !strings.HasPrefix(f, "tau 0.05 → 0.1") {
		t.Errorf("a message did not replace the event: %q", f)
	}
}

// TestErrorTakesTheFooter: an error's message is not cut at half the line (the read-only view's
// refusal lost the command it gives); the hints give way, but for help and quit.
func TestErrorTakesTheFooter(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	m.fail("read-only view: p (critic penalty on/off) changes the run; to train it: spg-tui tui --resume runs/a1")
	f := strip(m.footer())
	if !strings.Contains(f, "spg-tui tui --resume runs/a1") || !strings.HasSuffix(f, "? help • q quit") {
		t.Errorf("footer %q", f)
	}
}

// TestFooterSaysResumeWhilePaused: the footer offered "space pause" to a paused run, where
// space resumes it.
func TestFooterSaysResumeWhilePaused(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 24)
	for _, c := range []struct {
		state      run.State
		want, lack string
	}{
		{run.StateTraining, "space pause", "space resume"},
		{run.StatePaused, "space resume", "space pause"},
	} {
		m.ctx.status.State = c.state
		if f := strip(m.footer()); !strings.Contains(f, c.want) || strings.Contains(f, c.lack) {
			t.Errorf("%s: footer %q, want %q", c.state, f, c.want)
		}
	}
}

package ui

import (
	"fmt"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// TestFinishedRunFooter: a finished run's footer offered pause and penalty, space answered "the
// run is done" and p "refused: the run has ended (kept off)"; it offers to continue the run for
// another run length and to start another task, and the keys that would change it say so.
func TestFinishedRunFooter(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	m.ctx.status.State = run.StateDone
	f := strip(m.footer())
	golden(t, "footer_done_120", f)
	for _, want := range []string{"space continue +400 steps", "t another task", "? help", "q quit"} {
		if !strings.Contains(f, want) {
			t.Errorf("the footer lacks %q: %q", want, f)
		}
	}
	press(m, "p")
	if want := "the run is done: space continues it for 400 more steps, t starts another task"; !m.msg.err || m.msg.text != want {
		t.Errorf("p on a finished run: %+v, want %q", m.msg, want)
	}
	press(m, "t")
	if m.dialog == nil {
		t.Error("t did not open the task switch")
	}
}

// TestContinueFinishedRun: space on a finished run reopens it in its directory, as tui --resume
// DIR --steps N does, for another run length each time, and shows the continued run.
func TestContinueFinishedRun(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 6)
	cfg.Steps = 100
	dir := t.TempDir()
	e, err := enginetest.New(cfg, dir, enginetest.Options{Buffer: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(e, 120, 36)
	var calls []string
	m.resume = func(d string, steps int) (run.Engine, error) {
		calls = append(calls, fmt.Sprintf("%s %d", d, steps))
		c := cfg
		c.Steps = steps
		return enginetest.New(c, d, enginetest.Options{Buffer: 1 << 14})
	}
	for _, total := range []int{200, 300} {
		until(t, m, "the end", func() bool { return m.ctx.status.State == run.StateDone })
		_, cmd := m.Update(keyMsg("space"))
		if cmd == nil || !m.switching || !strings.Contains(strip(m.footer()), "continuing the run") {
			t.Fatalf("space on a finished run: %+v, footer %q", m.msg, strip(m.footer()))
		}
		m.Update(cmd())
		if want := fmt.Sprintf("%s %d", dir, total); len(calls) == 0 || calls[len(calls)-1] != want {
			t.Fatalf("resumed %q, want %q", calls, want)
		}
		if m.switching || m.engine.Info().Dir != dir || m.engine.Config().Steps != total || !strings.Contains(m.msg.text, "continuing the run to step") {
			t.Fatalf("after the continue: switching %v, dir %s, steps %d, %+v", m.switching, m.engine.Info().Dir, m.engine.Config().Steps, m.msg)
		}
	}
	t.Cleanup(func() { m.engine.Stop(); <-m.engine.Done() })
	m.resume = nil
	until(t, m, "the end", func() bool { return m.ctx.status.State == run.StateDone })
	press(m, "space")
	if !m.msg.err || !strings.Contains(m.msg.text, "tui --resume "+dir+" --steps 400") {
		t.Errorf("without a resume: %+v", m.msg)
	}
}

// TestHistoryNotRetold: a resumed run sends its history first, and the footer used to retell it:
// "training done at step 40" replaced "continuing the run to step 80" as the continued run
// began. The history fills the panes only.
func TestHistoryNotRetold(t *testing.T) {
	recs := make(chan run.Record, 4)
	for _, e := range []*run.Event{{Event: run.EventCheckpoint}, {Event: run.EventDone}} {
		recs <- run.Record{Kind: run.KindEvent, Step: 40, Event: e}
	}
	recs <- run.Record{Kind: run.KindEvent, Step: 40, Event: &run.Event{Event: run.EventStart}}
	eng := &historyEngine{recs: recs}
	eng.info = run.RunInfo{Title: "history", Dir: "runs/h", History: 2}
	eng.cfg = tinyConfig(envs.TaskMWM, 10)
	m := newTestModel(eng, 120, 36)
	m.info("continuing the run to step 80")
	m.poll()
	if m.msg.text != "continuing the run to step 80" || len(m.ctx.data.events) != 3 {
		t.Errorf("footer %q, %d events, want the continue message and all 3 events", m.msg.text, len(m.ctx.data.events))
	}
	recs <- run.Record{Kind: run.KindEvent, Step: 80, Event: &run.Event{Event: run.EventDone}}
	m.poll()
	if m.msg.text != "training done at step 80" {
		t.Errorf("footer %q, want the new end told", m.msg.text)
	}
}

// historyEngine is a static engine whose records come from recs.
type historyEngine struct {
	staticEngine
	recs chan run.Record
}

func (h *historyEngine) Records() <-chan run.Record { return h.recs }

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// liveModel is a console around a scripted engine that trains slowly, so that tests drive it.
func liveModel(t *testing.T, w, h int) (*model, *enginetest.Engine) {
	t.Helper()
	cfg := tinyConfig(envs.TaskMWM, 6)
	cfg.Steps = 1_000_000
	e, err := enginetest.New(cfg, t.TempDir(), enginetest.Options{StepDelay: time.Millisecond, Buffer: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop(); <-e.Done() })
	return newTestModel(e, w, h), e
}

// until polls the model (as its tick does) until cond holds.
func until(t *testing.T, m *model, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; screen:\n%s", what, screen(m))
		}
		time.Sleep(2 * time.Millisecond)
		m.poll()
	}
}

func panelRow(m *model, label string) string {
	for _, l := range strings.Split(strip(m.params.View()), "\n") {
		if strings.Contains(l, label) {
			return l
		}
	}
	return ""
}

func TestStepAndRefusal(t *testing.T) {
	m, e := liveModel(t, 120, 36)
	// tau: + climbs the 1-2-5 ladder.
	press(m, "+")
	if got := e.Config().Tau; got != 0.1 {
		t.Fatalf("tau after + = %g, want 0.1", got)
	}
	if !strings.Contains(m.msg.text, "tau 0.05 → 0.1") || m.msg.err {
		t.Errorf("message %+v", m.msg)
	}
	// A second + before the change is in force steps from the pending value.
	press(m, "+")
	if got := e.Config().Tau; got != 0.2 {
		t.Errorf("tau after ++ = %g, want 0.2", got)
	}
	// L: typed values; 0 is refused by the engine and the old value stays.
	press(m, "down", "enter")
	if !m.params.editing {
		t.Fatal("enter did not start typing")
	}
	for range 4 {
		press(m, "backspace")
	}
	press(m, "0", "enter")
	if !m.msg.err || !strings.Contains(m.msg.text, "refused: L (Sinkhorn) 0: must be a whole number") || !strings.Contains(m.msg.text, "kept 10") {
		t.Errorf("refusal message %+v", m.msg)
	}
	if e.Config().SinkhornIters != 10 || !strings.Contains(panelRow(m, "L (Sinkhorn)"), "10") {
		t.Errorf("L = %d after a refused 0; row %q", e.Config().SinkhornIters, panelRow(m, "L (Sinkhorn)"))
	}
	// Text that is not a number never reaches the engine.
	press(m, "enter", "backspace", "backspace", "x", "enter")
	if !m.msg.err || !strings.Contains(m.msg.text, "not a number") {
		t.Errorf("message %+v", m.msg)
	}
	// epsilon: - steps by the value's own scale (0.01 to 0.005, where a fixed 0.05 went below
	// 0); a typed 0, below the schedule's floor eps-end, is taken; - at 0 is refused.
	press(m, "down")
	e.Set(run.ParamEpsDecay, 0) // held, whatever step the console last saw
	e.Set(run.ParamEpsilon, 0.01)
	m.params.pending = map[string]float64{}
	m.ctx.cfg = e.Config()
	press(m, "-")
	if m.msg.err || e.Config().EpsStart != 0.005 {
		t.Errorf("- on epsilon 0.01: epsilon %g, %+v", e.Config().EpsStart, m.msg)
	}
	press(m, "enter", "0", "enter")
	if m.msg.err || e.Config().EpsStart != 0 {
		t.Errorf("typing 0 on epsilon: epsilon %g, %+v", e.Config().EpsStart, m.msg)
	}
	press(m, "-")
	if !m.msg.err || !strings.Contains(m.msg.text, "epsilon 0: already the least, 0 (kept 0)") {
		t.Errorf("- on epsilon 0: %+v", m.msg)
	}
	// Escape abandons typing.
	press(m, "enter", "9", "esc")
	if m.params.editing || e.Config().EpsStart != 0 {
		t.Error("esc applied the typed value")
	}
}

func TestDisplaySettings(t *testing.T) {
	m, _ := liveModel(t, 120, 36)
	for m.params.sel != len(paramItems)-2 {
		press(m, "up")
	}
	press(m, "+")
	if m.ctx.smoothing != 0.7 {
		t.Errorf("smoothing %g after +", m.ctx.smoothing)
	}
	press(m, "enter", "backspace", "backspace", "backspace", "2", "enter")
	if m.ctx.smoothing != 0.7 || !m.msg.err {
		t.Errorf("smoothing 2 accepted: %g %+v", m.ctx.smoothing, m.msg)
	}
	press(m, "down", "+")
	if m.ctx.logScale != chartCritic || !strings.Contains(strip(m.critic.View()), "log scale") {
		t.Error("log scale not switched on for the critic")
	}
	// Every chart has a log scale: + steps through the sets of charts, enter takes their names.
	press(m, "+")
	if m.ctx.logScale != chartVal || !strings.Contains(panelRow(m, "log scale"), "val") {
		t.Errorf("second +: log scale %v, panel %q", m.ctx.logScale, panelRow(m, "log scale"))
	}
	typed := append([]string{"enter"}, strings.Split("reward, critic", "")...)
	press(m, append(typed, "enter")...)
	if m.ctx.logScale != chartReward|chartCritic || !strings.Contains(m.msg.text, "log scale: reward critic") {
		t.Errorf("typed reward, critic: %v %+v", m.ctx.logScale, m.msg)
	}
	press(m, append(append([]string{"enter"}, strings.Split("loss", "")...), "enter")...)
	if m.ctx.logScale != chartReward|chartCritic || !m.msg.err || !strings.Contains(m.msg.text, `"loss": not a chart`) {
		t.Errorf("typed loss: %v %+v", m.ctx.logScale, m.msg)
	}
}

func TestSwitchKeys(t *testing.T) {
	m, e := liveModel(t, 120, 36)
	until(t, m, "training", func() bool { return m.ctx.status.Step > 0 })
	press(m, "p")
	if e.Config().CriticPenalty {
		t.Fatal("p left the penalty on")
	}
	if !strings.Contains(panelRow(m, "critic penalty"), "off") {
		t.Errorf("panel shows %q", panelRow(m, "critic penalty"))
	}
	until(t, m, "the set event", func() bool { return len(m.ctx.data.sets) == 1 })
	if _, pending := m.params.pending[run.FlagCriticPenalty]; pending {
		t.Error("the set event did not clear the pending value")
	}
	press(m, "p", "x")
	if !e.Config().CriticPenalty || e.Config().Exploration {
		t.Errorf("p x: penalty %v exploration %v", e.Config().CriticPenalty, e.Config().Exploration)
	}
	// The marks appear on the curves.
	until(t, m, "marks", func() bool { return strings.Contains(strip(m.reward.View()), "▲") })

	press(m, "space")
	until(t, m, "pause", func() bool { return m.ctx.status.State == run.StatePaused })
	s := e.Status().Step
	time.Sleep(20 * time.Millisecond)
	if e.Status().Step != s {
		t.Error("the run trains while paused")
	}
	press(m, "space")
	until(t, m, "resume", func() bool { return m.ctx.status.State == run.StateTraining })

	press(m, "s")
	until(t, m, "the checkpoint", func() bool { return strings.Contains(m.msg.text, "checkpoint written") })
	if _, err := os.Stat(filepath.Join(e.Info().Dir, "checkpoints", "last")); err != nil {
		t.Error(err)
	}
}

func TestSampleKeys(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	ev, _ := m.ctx.shownVal()
	n := len(ev.Samples)
	press(m, "right")
	if m.sample.index != 1 || !strings.Contains(strip(m.sample.View()), "2/4") {
		t.Errorf("right: index %d", m.sample.index)
	}
	press(m, "left", "left")
	if m.sample.index != n-1 {
		t.Errorf("left wraps to %d, want %d", m.sample.index, n-1)
	}
	press(m, "o")
	if !strings.Contains(strip(m.sample.View()), "optimal") {
		t.Error("o does not show the optimal solution")
	}
}

func TestParseTask(t *testing.T) {
	for in, want := range map[string]string{"mwm 20": "mwm/20/", "TSP20": "tsp/20/", "sort-50": "sort/50/", " tsp 7 ": "tsp/7/", "mwm 20 best": "mwm/20/best", "sort50 Paper": "sort/50/paper"} {
		task, n, recipe, err := parseTask(in)
		if err != nil || string(task)+"/"+itoa(n)+"/"+recipe != want {
			t.Errorf("parseTask(%q) = %s %d %q %v", in, task, n, recipe, err)
		}
	}
	for _, in := range []string{"mwm", "20x", "mwm 2x", "mwm 2x best"} {
		if _, _, _, err := parseTask(in); err == nil {
			t.Errorf("parseTask(%q) accepted", in)
		}
	}
}

// A refused live value is one line that names the setting and the value once: the engine's
// refusal is not wrapped in a second "refused".
func TestRefusalSaysItOnce(t *testing.T) {
	m, e := liveModel(t, 120, 36)
	for _, tc := range []struct{ row, typed, want string }{
		{"tau", "inf", "refused: tau +Inf: must be in [0.0001, 10000] (kept 0.05)"},
		{"epsilon", "-0.5", "refused: epsilon -0.5: must be in [0, 1] (kept "},
	} {
		for paramItems[m.params.sel].name != tc.row {
			press(m, "down")
		}
		press(m, "enter")
		for range 8 {
			press(m, "backspace")
		}
		press(m, strings.Split(tc.typed, "")...)
		press(m, "enter")
		if !m.msg.err || !strings.HasPrefix(m.msg.text, tc.want) || strings.Count(m.msg.text, "refused") != 1 {
			t.Errorf("%s %s: message %q, want %q", tc.row, tc.typed, m.msg.text, tc.want)
		}
	}
	if got := e.Config().Tau; got != 0.05 {
		t.Errorf("tau %g after a refused +Inf", got)
	}
}

// TestRefusalOutlivesCheckpoints: in a tiny run, whose checkpoints come every second, a refusal
// used to be replaced within a second by "checkpoint written"; routine progress must leave it
// in the footer for as long as any message stays, while an error or the next key replaces it.
func TestRefusalOutlivesCheckpoints(t *testing.T) {
	m, _ := liveModel(t, 120, 36)
	refuse := func() {
		for paramItems[m.params.sel].name != "tau" {
			press(m, "down")
		}
		press(m, "enter", "backspace", "backspace", "backspace", "backspace", "0", "enter")
	}
	checkpoint := run.Record{Kind: run.KindEvent, Step: 200, Event: &run.Event{Event: run.EventCheckpoint}}
	refuse()
	refusal := m.msg.text
	m.observe(checkpoint)
	if !m.msg.err || m.msg.text != refusal {
		t.Errorf("after a checkpoint: %q, want the refusal %q", m.msg.text, refusal)
	}
	m.msg.at = m.msg.at.Add(-statusTimeout - time.Second)
	m.observe(checkpoint)
	if !strings.HasPrefix(m.msg.text, "checkpoint written") {
		t.Errorf("after the refusal's time: %q, want the checkpoint", m.msg.text)
	}
	refuse()
	m.observe(run.Record{Kind: run.KindEvent, Step: 200, Event: &run.Event{Event: run.EventError, Message: "boom"}})
	if m.msg.text != "training stopped: boom" {
		t.Errorf("after an error: %q, want the error", m.msg.text)
	}
	refuse()
	press(m, "s")
	m.observe(checkpoint)
	if !strings.HasPrefix(m.msg.text, "checkpoint written") {
		t.Errorf("after s: %q, want the checkpoint", m.msg.text)
	}
}

package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"spg-tui/envs"
	"spg-tui/run"
)

// updating reports whether the test runs with -update, which rewrites the golden files. The flag
// is charmbracelet/x/exp/golden's, imported with teatest: one test binary cannot define it twice.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// testdata is the package's testdata directory, wherever a test has moved the working
// directory to.
var testdata, _ = filepath.Abs("testdata")

// golden compares got with testdata/name.golden (rewriting it under -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(testdata, name+".golden")
	if updating() {
		if err := os.MkdirAll(testdata, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs at line %d:\n got: %q\nwant: %q\n(go test -update rewrites it)\n%s", path, i+1, g, w, got)
		}
	}
}

// fixture is a finished scripted run of task at size n, fed to a console of w×h cells, with a
// live change of tau at step 200 and one of the penalty at step 300.
func fixture(t testing.TB, task envs.Task, n, w, h int) *model {
	t.Helper()
	cfg := tinyConfig(task, n)
	_, recs := runScripted(t, cfg, "")
	eng := &staticEngine{}
	eng.cfg = cfg
	eng.info = run.RunInfo{Model: run.ModelTitle(cfg), Title: run.Title(cfg),
		Backend: "pure Go (gonum)", Dir: "runs/fixture", Seed: cfg.Seed}
	eng.status = run.Status{State: run.StateTraining, Step: 400, TotalSteps: 1000, Epoch: 4, StepsPerSec: 123.4, ETA: 292e9}
	m := newTestModel(eng, w, h)
	for _, r := range recs {
		m.observe(r)
		switch r.Step {
		case 200, 300:
			if r.Kind == run.KindTrain {
				ev := &run.Event{Event: run.EventSet, Param: run.ParamTau, Old: 0.05, New: 0.1}
				if r.Step == 300 {
					ev = &run.Event{Event: run.EventSet, Param: run.FlagCriticPenalty, Old: 1, New: 0}
				}
				m.observe(run.Record{Kind: run.KindEvent, Step: r.Step, Event: ev})
			}
		}
	}
	m.ctx.status = eng.status
	m.msg = status{}
	return m
}

// fixtureB is the MWM-10 fixture for benchmarks.
func fixtureB(b *testing.B) *model { return fixture(b, envs.TaskMWM, 10, 120, 36) }

func strip(s string) string { return ansi.Strip(s) }

func TestGoldenScreens(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"screen_120x36", 120, 36}, {"screen_80x24", 80, 24}, {"screen_150x45", 150, 45}, {"screen_too_small", 79, 23}} {
		m := fixture(t, envs.TaskMWM, 10, c.w, c.h)
		golden(t, c.name, screen(m))
	}
}

func TestGoldenPanes(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	golden(t, "pane_header", strip(m.header.View()))
	golden(t, "pane_reward", strip(m.reward.View()))
	golden(t, "pane_critic", strip(m.critic.View()))
	golden(t, "pane_scatter", strip(m.scatter.View()))
	golden(t, "pane_sample_mwm", strip(m.sample.View()))
	golden(t, "pane_params", strip(m.params.View()))
	golden(t, "pane_events", strip(m.events.View()))

	press(m, "right", "o")
	golden(t, "pane_sample_mwm_optimal", strip(m.sample.View()))

	m.ctx.logScale = chartCritic
	m.ctx.displayVer++
	golden(t, "pane_critic_log", strip(m.critic.View()))

	for _, task := range []envs.Task{envs.TaskTSP, envs.TaskSort} {
		m := fixture(t, task, 10, 120, 36)
		golden(t, "pane_sample_"+string(task), strip(m.sample.View()))
		golden(t, "pane_reward_"+string(task), strip(m.reward.View()))
	}
}

func TestGoldenOverlays(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	press(m, "?")
	golden(t, "screen_help", screen(m))
	press(m, "esc", "t")
	golden(t, "screen_task_dialog", screen(m))
	press(m, "esc", "down", "enter")
	golden(t, "pane_params_editing", strip(m.params.View()))
}

package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/run"
)

// headerLine1 is the header's first line as drawn.
func headerLine1(m *model) string { return strings.Split(strip(m.header.View()), "\n")[0] }

// TestHeaderKeepsWhatMatters: a header too wide for the screen drops the epoch, then the rate,
// and keeps the step and the ETA (80 columns used to cut it to "… · 123.4 steps/…"), also
// for a view of a run trained live, whose state is long.
func TestHeaderKeepsWhatMatters(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := fixture(t, envs.TaskMWM, 10, w, 36)
		for _, writer := range []int{0, 123456} {
			m.ctx.readOnly, m.ctx.writer = writer > 0, writer
			got := headerLine1(m)
			for _, want := range []string{"MWM-10", "step 400/1,000", "ETA 4m52s"} {
				if !strings.Contains(got, want) {
					t.Errorf("%d columns, writer %d: header %q lacks %q", w, writer, got, want)
				}
			}
			if strings.Contains(got, "…") || w >= 120 && writer > 0 && !strings.Contains(got, "trained live by PID 123456") {
				t.Errorf("%d columns, writer %d: header cut: %q", w, writer, got)
			}
		}
	}
}

// TestHeaderRateWhileTraining: a paused or finished run shows no rate and no ETA (they used to
// read "10.4 steps/s · ETA 30m48s" while paused and "0.0 steps/s" once done).
func TestHeaderRateWhileTraining(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 150, 36)
	for _, st := range []run.State{run.StatePaused, run.StateDone, run.StateStopped} {
		m.ctx.status.State = st
		if got := headerLine1(m); strings.Contains(got, "steps/s") || strings.Contains(got, "ETA") {
			t.Errorf("%s: header %q", st, got)
		}
	}
	// A view's replay reads "stopped" while another process trains the run: that run trains.
	m.ctx.readOnly, m.ctx.writer, m.ctx.status.State = true, 4242, run.StateStopped
	if got := headerLine1(m); !strings.Contains(got, "123.4 steps/s") || !strings.Contains(got, "ETA 4m52s") {
		t.Errorf("a view of a run trained live: header %q", got)
	}
}

// TestWaitETA: the references' wait tells its time left from its pace since the console saw it.
func TestWaitETA(t *testing.T) {
	var p waitPace
	t0 := time.Unix(1000, 0)
	w := run.Wait{What: "solving the references of the validation set", Done: 100, Total: 1000}
	if got := p.left(w, t0); got != 0 {
		t.Errorf("at first sight: %v, want unknown", got)
	}
	w.Done = 250
	if got := p.left(w, t0.Add(30*time.Second)); got != 150*time.Second {
		t.Errorf("150 done in 30 s, 750 left: %v, want 2m30s", got)
	}
	if got := p.left(run.Wait{What: "solving the references of the test set", Done: 0, Total: 10}, t0); got != 0 {
		t.Errorf("a new wait: %v, want unknown", got)
	}
	again := w
	p.left(run.Wait{What: w.What, Done: 500, Total: 1000}, t0)
	again.Done = 10 // the same wait begun again
	p.left(again, t0.Add(time.Minute))
	again.Done = 20
	if got := p.left(again, t0.Add(time.Minute+10*time.Second)); got != 980*time.Second {
		t.Errorf("the same wait begun again, 10 done in 10 s: %v, want 16m20s", got)
	}
	for _, width := range []int{120, 80} {
		m := fixture(t, envs.TaskTSP, 10, width, 36)
		m.ctx.status.Wait = w
		m.ctx.waitLeft = 150 * time.Second
		got := headerLine1(m)
		if !strings.HasSuffix(got, "250/1000 · ETA 2m30s") {
			t.Errorf("%d columns: %q", width, got)
		}
		golden(t, fmt.Sprintf("pane_header_wait_eta_%d", width), strip(m.header.View()))
	}
}

// TestTestScoreReadable: a finished run's test score is on screen whole, at 80 columns (in the
// header) and at 120 (there and in the events, wrapped: "done: test optimal…" used to be cut).
func TestTestScoreReadable(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := fixture(t, envs.TaskMWM, 10, w, map[int]int{80: 24, 120: 36}[w])
		m.ctx.status.State = run.StateDone
		m.observe(run.Record{Kind: run.KindEvent, Step: 400, Event: &run.Event{Event: run.EventDone,
			Message: "test optimality_ratio 0.810234 (best validation at step 400)"}})
		if got := headerLine1(m); !strings.Contains(got, "test optimality ratio 0.8102") {
			t.Errorf("%d columns: header %q", w, got)
		}
		if w == 120 {
			ev := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(strip(m.events.View()))), " ")
			if !strings.Contains(ev, "done: test optimality_ratio 0.810234 (best validation at step 400)") {
				t.Errorf("the events cut the done line:\n%s", strip(m.events.View()))
			}
		}
	}
}

// TestNarrowPanesKeepTheirNumbers: at 80x24 a pane's legend or status line is shortened, not cut
// through its number: the reward's last value, the scatter's correlation, the sample's ratio.
func TestNarrowPanesKeepTheirNumbers(t *testing.T) {
	sc := screen(fixture(t, envs.TaskMWM, 10, 80, 24))
	for _, want := range []string{"EMA 0.60 last 0.49", "Q(s,M) ↑ r = 0.998", "ratio 1.000", "hard MSE  ++ penalty"} {
		if !strings.Contains(sc, want) {
			t.Errorf("80x24 lacks %q:\n%s", want, sc)
		}
	}
}

// TestHeaderKeepsRunDirBeforeBackend: where the GPU was not used the backend says why at
// length; a narrow header cuts that, not the run's directory (the backend used to come first).
func TestHeaderKeepsRunDirBeforeBackend(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := fixture(t, envs.TaskMWM, 10, w, 36)
		m.ctx.info.Backend = "pure Go (gemm avx512) on cpu (GPU not used: cuBLAS not found; set SPG_TUI_CUDA_LIB to its directory)"
		line2 := strings.Split(strip(m.header.View()), "\n")[1]
		if !strings.Contains(line2, "run runs/fixture · backend pure Go") {
			t.Errorf("%d columns: %q", w, line2)
		}
		if w >= 120 && !strings.Contains(line2, "on cpu (GPU not used: cuBLAS not found") {
			t.Errorf("%d columns: the reason is cut: %q", w, line2)
		}
	}
}

// TestHeaderStatesTheRecipesChoiceByData: where best chose the model by --data (spg-gm-spectral on
// gm's regular graphs) the header says so; on the default data it names the recipe alone.
func TestHeaderStatesTheRecipesChoiceByData(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"regular:d=4", "recipe best on regular graphs · "},
		{"", "recipe best · "},
	} {
		cfg := run.DefaultConfig(envs.TaskGM, 10)
		if tc.data != "" {
			cfg.Data = tc.data
		}
		cfg, err := run.WithRecipe(cfg, run.RecipeBest)
		if err != nil {
			t.Fatal(err)
		}
		eng := &staticEngine{cfg: cfg, info: run.RunInfo{Title: run.Title(cfg), Dir: "runs/gm10"}}
		eng.status = run.Status{State: run.StateTraining, TotalSteps: 1000}
		m := newTestModel(eng, 150, 36)
		if got := strings.Split(strip(m.header.View()), "\n")[1]; !strings.Contains(got, tc.want) {
			t.Errorf("data %q: header %q lacks %q", tc.data, got, tc.want)
		}
	}
}

package ui

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// writeCompareRun writes a run directory by hand, so that its records (wall time included) are
// the same on every machine: cfg, a start event, a training summary every 20 steps at rate
// steps a second, a validation every 100 steps on the curve 1 - gap/(1 + step/200), and the
// done event if the run reached cfg.Steps by step last.
func writeCompareRun(t *testing.T, dir string, cfg run.Config, gap, rate float64, last int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, run.ConfigFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	recs := []run.Record{{Kind: run.KindEvent, Event: &run.Event{Event: run.EventStart, References: map[string]float64{"random": 0.7}}}}
	for s := 20; s <= last; s += 20 {
		wall := float64(s) / rate
		r := 0.7 - gap + 0.1*float64(s)/float64(cfg.Steps) + 0.01*math.Sin(float64(s))
		recs = append(recs, run.Record{Kind: run.KindTrain, Step: s, Wall: wall, Train: &run.Train{RewardMean: r}})
		if s%100 == 0 {
			recs = append(recs, run.Record{Kind: run.KindEval, Step: s, Wall: wall, Eval: &run.Eval{Split: "val",
				MetricName: "optimality_ratio", Metric: 1 - gap/(1+float64(s)/200)}})
		}
	}
	if last >= cfg.Steps {
		recs = append(recs, run.Record{Kind: run.KindEvent, Step: last, Wall: float64(last) / rate, Event: &run.Event{Event: run.EventDone}})
	}
	f, err := os.Create(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
}

// compareFixture is three MWM-10 runs that differ in tau and seed: two finished, one halfway.
func compareFixture(t *testing.T) []string {
	t.Chdir(t.TempDir()) // the screens show the runs' paths
	root := "runs"
	var dirs []string
	for i, c := range []struct {
		tau       float64
		seed      uint64
		gap, rate float64
		last      int
	}{{0.05, 1, 0.3, 40, 1000}, {0.1, 1, 0.2, 25, 1000}, {0.1, 2, 0.25, 30, 500}} {
		cfg := run.DefaultConfig(envs.TaskMWM, 10)
		cfg.Steps, cfg.Tau, cfg.Seed = 1000, c.tau, c.seed
		dir := filepath.Join(root, []string{"tau05", "tau10", "tau10-seed2"}[i])
		writeCompareRun(t, dir, cfg, c.gap, c.rate, c.last)
		dirs = append(dirs, dir)
	}
	return dirs
}

// compareModel opens the compare view on dirs at w×h, as tui --view DIR... does.
func compareModel(t *testing.T, dirs []string, w, h int) *model {
	t.Helper()
	o := Options{Compare: dirs}
	runs, err := o.openCompare()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := runlog.Open(o.View)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(eng, enginetest.Start, false, true)
	m.showCompare(runs)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.poll()
	m.msg = status{}
	return m
}

func TestGoldenCompare(t *testing.T) {
	dirs := compareFixture(t)
	for _, size := range [][2]int{{120, 36}, {80, 24}} {
		m := compareModel(t, dirs, size[0], size[1])
		golden(t, "screen_compare_"+itoa(size[0])+"x"+itoa(size[1]), screen(m))
	}
}

// TestCompareKeys: the table sorts by best validation, a pinned run comes first, a hidden run
// leaves the legend, w switches the x-axis to training time, and c goes to the first run.
func TestCompareKeys(t *testing.T) {
	m := compareModel(t, compareFixture(t), 120, 36)
	v := m.compare
	var diff []string
	for _, d := range v.diff {
		diff = append(diff, strings.Join(d, " "))
	}
	if got := strings.Join(diff, " | "); got != "seed=1 tau=0.05 | seed=1 tau=0.1 | seed=2 tau=0.1" {
		t.Errorf("differing values %q", got)
	}
	press(m, "s")
	if got := v.ordered()[0].label; got != "tau10" {
		t.Errorf("first by best validation: %s, want tau10", got)
	}
	press(m, "down", "down", "p")
	if got := v.ordered()[0]; got.label != "tau10-seed2" && got.label != "tau05" || !got.pinned {
		t.Errorf("the pinned run is not first: %+v", got.label)
	}
	pinned := v.ordered()[0].label
	press(m, "h")
	if drawn, _ := v.drawn(v.ordered()); strings.Contains(v.legend(drawn, 200), pinned) {
		t.Errorf("the hidden run %s is still in the legend", pinned)
	}
	press(m, "w")
	if sc := screen(m); !strings.Contains(sc, "x-axis: training time") || !strings.Contains(sc, "40s") {
		t.Errorf("w did not switch the x-axis to training time:\n%s", sc)
	}
	press(m, "c")
	if m.view != viewMain || !strings.Contains(screen(m), "tau05") {
		t.Errorf("c did not show the first run")
	}
}

// TestCompareFollowsLiveRun: records appended to a run's metrics.jsonl after the view opened
// reach its row.
func TestCompareFollowsLiveRun(t *testing.T) {
	dirs := compareFixture(t)
	m := compareModel(t, dirs, 120, 36)
	live := m.compare.runs[2]
	if live.eng.Status().Step != 500 {
		t.Fatalf("step %d before, want 500", live.eng.Status().Step)
	}
	f, err := os.OpenFile(filepath.Join(dirs[2], run.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	json.NewEncoder(f).Encode(run.Record{Kind: run.KindEval, Step: 600, Wall: 20, Eval: &run.Eval{Split: "val", MetricName: "optimality_ratio", Metric: 0.99}})
	m.poll()
	if live.eng.Status().Step != 600 || live.best() != 0.99 {
		t.Errorf("after appending: step %d, best %g", live.eng.Status().Step, live.best())
	}
}

// TestExpandViewDirs: a glob keeps the directories it matches, not the files; a glob matching
// no directory and a named file are refused.
func TestExpandViewDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"r1", "r2"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "r.log"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ExpandViewDirs([]string{filepath.Join(root, "r*"), filepath.Join(root, "r1")})
	if err != nil || len(got) != 2 {
		t.Errorf("got %q, %v; want r1 and r2 once each", got, err)
	}
	for _, bad := range []string{filepath.Join(root, "x*"), filepath.Join(root, "r.log")} {
		if _, err := ExpandViewDirs([]string{bad}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

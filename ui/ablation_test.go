package ui

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/run"
)

func TestAblationView(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 6, 120, 36)
	m.ablation.baseDir = t.TempDir()
	m.ablation.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	press(m, "a")
	if m.view != viewAblation {
		t.Fatal("a did not open the ablation view")
	}
	golden(t, "screen_ablation_idle", screen(m))

	// Choose the exploration ablation, 1,000 steps, 2 seeds.
	press(m, "right", "right", "down", "-", "down", "-")
	v := m.ablation
	if got := v.ablations[v.choice].Name; got != "exploration" || v.steps != 1000 || v.seeds != 2 {
		t.Fatalf("settings %s, %d steps, %d seeds", got, v.steps, v.seeds)
	}
	press(m, "enter")
	if v.runner == nil {
		t.Fatalf("enter did not start the ablation: %q", v.msg)
	}
	if !strings.Contains(m.msg.text, "ablation started") {
		t.Errorf("message %q", m.msg.text)
	}
	select {
	case <-v.runner.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the ablation did not finish")
	}
	m.poll()
	if !strings.Contains(m.msg.text, "ablation ended: 6 of 6 runs") {
		t.Errorf("message %q", m.msg.text)
	}
	s := v.snap
	if s.Finished != 6 || len(s.Variants) != 3 {
		t.Fatalf("snapshot: %d finished, %d variants", s.Finished, len(s.Variants))
	}
	sc := screen(m)
	for _, want := range []string{"68% CI of the mean over n = 2 seeds", "eps 1, decay 0.95", "no exploration", "100%"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the view lacks %q", want)
		}
	}
	// The table's best scores are the snapshot's.
	for _, vr := range s.Variants {
		want := strings.TrimSpace(strings.Split(fmtBest(vr.Best), " ")[0])
		if !strings.Contains(sc, want) {
			t.Errorf("%s: best %s not shown", vr.Name, want)
		}
	}
	golden(t, "screen_ablation_done", sc)
	press(m, "a")
	if m.view != viewMain {
		t.Error("a did not go back")
	}
}

func fmtBest(b experiments.Band) string { return strings.Fields(strings.TrimSpace(formatBand(b)))[0] }

func TestAblationStopAndLock(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 6, 120, 36)
	m.ablation.baseDir = t.TempDir()
	m.ablation.steps = 1_000_000
	press(m, "a", "enter")
	v := m.ablation
	if !v.running() {
		t.Fatal("not running")
	}
	press(m, "down", "+")
	if v.steps != 1_000_000 || !strings.Contains(v.msg, "stop the ablation") {
		t.Errorf("settings changed while running: %d, %q", v.steps, v.msg)
	}
	press(m, "enter")
	select {
	case <-v.runner.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("enter did not stop the ablation")
	}
	m.poll()
	for _, vr := range v.snap.Variants {
		for _, r := range vr.Runs {
			if r.Phase != experiments.Stopped && r.Phase != experiments.Skipped {
				t.Errorf("%s seed %d: %v", vr.Name, r.Seed, r.Phase)
			}
		}
	}
}

// TestAblationTableAlignsLongNames keeps the score column straight under an experiment's long
// arm labels, which overflowed the console's 20-rune name column.
func TestAblationTableAlignsLongNames(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 6, 120, 36)
	band := experiments.Band{Mean: 0.95, Lo: 0.94, Hi: 0.96, N: 3}
	s := experiments.Snapshot{Maximize: true, MetricName: "optimality_ratio", Variants: []experiments.VariantResult{
		{Name: "PN-AC+Matching · MWM-15", Best: band},
		{Name: "SPG+Random · MWM-15", Best: band},
	}}
	lines := m.ablation.table(s)
	var cols []int
	for _, l := range lines[1:3] {
		cols = append(cols, utf8.RuneCountInString(l[:strings.Index(l, "0.9500")]))
	}
	if cols[0] != cols[1] {
		t.Errorf("the score column starts at rune %d and %d:\n%s", cols[0], cols[1], strings.Join(lines, "\n"))
	}
}

// TestAblationBudgetBounded: the step budget's - stops at 1 and + at the most a run may have
// (twelve - used to go 1 → 0 → -9,223,372,036,854,775,808, which + never left).
func TestAblationBudgetBounded(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 6, 120, 36)
	press(m, "a", "down")
	for range 12 {
		press(m, "-")
	}
	if got := m.ablation.steps; got != 1 {
		t.Fatalf("after twelve -: %d steps, want 1", got)
	}
	press(m, "+")
	if got := m.ablation.steps; got != 2 {
		t.Errorf("+ from 1: %d steps, want 2", got)
	}
	m.ablation.steps = run.MaxSteps
	press(m, "+")
	if got := m.ablation.steps; got != run.MaxSteps {
		t.Errorf("+ at the most: %d steps, want %d", got, run.MaxSteps)
	}
}

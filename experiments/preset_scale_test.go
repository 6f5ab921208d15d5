package experiments

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestScaleKeepsTheShape: a scale at which a scaled field would fall under its least (the
// training set under one batch, a decay interval under one step) is refused in one line naming
// the least scale and the field; at that least every run is one batch an epoch. --scale 1e-300
// used to be clamped to 128 instances and 20 steps while the report described 1e-300 of the
// paper's budget.
func TestScaleKeepsTheShape(t *testing.T) {
	for _, c := range []struct {
		scale float64
		flags map[string]string
		want  string
	}{
		{1e-300, nil, `--scale 1e-300: must be at least 0.000256 for preset penalty: below it the training set of arm "penalty on" (500000 instances at scale 1) would be under one batch (128)`},
		{0.000255, nil, "--scale 0.000255: must be at least 0.000256"},
		{0.0001, map[string]string{"batch": "4", "train-size": "16"}, `--scale 0.0001: must be at least 0.0002 for preset penalty: below it the learning-rate decay interval of arm "penalty on" (5000 steps at scale 1) would be under one step`},
	} {
		_, _, err := Expand(Options{Preset: "penalty", Seeds: 1, Scale: c.scale, Overrides: mustOverrides(c.flags)})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("scale %g, flags %v: error %v, want one line containing %q", c.scale, c.flags, err, c.want)
		}
	}
	_, runs, err := Expand(Options{Preset: "penalty", Seeds: 2, Scale: 0.000256})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if c := r.Config; c.TrainSize != c.Batch || c.Steps != ablationEpochs || c.EvalEvery != 1 {
			t.Errorf("%s at the least scale: training set %d, %d steps, validation every %d; want one batch (%d), %d, 1",
				r.ID, c.TrainSize, c.Steps, c.EvalEvery, c.Batch, ablationEpochs)
		}
	}
	if _, _, err := Expand(Options{Preset: "penalty", Seeds: 1, Scale: 0.0002, Overrides: mustOverrides(map[string]string{"batch": "4", "train-size": "16"})}); err != nil {
		t.Errorf("scale 0.0002 with --train-size given: %v", err)
	}
}

// TestReportStatesStepsTrained: report.md gives the steps each arm's runs trained, and where a
// scale's epoch, rounded to whole batches, makes them differ from the scale's share of the budget
// at scale 1, both: at 0.001 the penalty preset's runs train 60 steps where 0.001 of 78,120 is
// 78, which the report used to leave unsaid.
func TestReportStatesStepsTrained(t *testing.T) {
	dir := t.TempDir()
	runPreset(t, tinyOptions("penalty", 1), dir)
	report := string(read(t, filepath.Join(dir, ReportFile)))
	want := "- Steps each run trained: penalty on, penalty off: 60 steps, 20 epochs of 3 (500 training instances in batches of 128), where 0.001 of the 78120 steps at scale 1 would be 78.12."
	if !strings.Contains(report, want) {
		t.Errorf("report lacks %q:\n%s", want, report)
	}
	for _, c := range []struct {
		arm  Arm
		want string
	}{
		{Arm{Label: "b", Model: "spg-pairwise", Steps: 1000}, "1000 steps at every scale"},
		{Arm{Label: "r", Model: "spg-random", Epochs: 100}, "1 step (the untrained policy)"},
	} {
		c.arm.Task, c.arm.N = "mwm", 10
		cfg, err := armConfig(Preset{Name: "x"}, c.arm, 1, Options{Seeds: 1, Scale: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		if got := armStepsText(c.arm, cfg, 0.01, 0); got != c.want {
			t.Errorf("%s: %q, want %q", c.arm.Label, got, c.want)
		}
	}
}

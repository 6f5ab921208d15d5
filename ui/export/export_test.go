package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteFiles: the files written (each figure as PNG and SVG), qscatter only once an
// evaluation gave a scatter, and train.csv's columns (the step and training time, then each
// series, the smoothed one followed by its moving average).
func TestWriteFiles(t *testing.T) {
	d := Data{
		Dir: filepath.Join(t.TempDir(), "step-20"), Step: 20, Smoothing: 0.5,
		TrainStep: []float64{10, 20}, TrainWall: []float64{1, 2}, Train: map[string][]float64{"reward_mean": {1, 3}, "critic_loss": {0.5, 0.25}},
		EvalStep: []float64{20}, EvalWall: []float64{2}, Metric: []float64{0.9}, MetricName: "optimality ratio", MetricLabel: "optimality ratio",
		Refs: []Ref{{"optimal", 1}}, Marks: []int{15},
	}
	names := func(files []string) []string {
		var out []string
		for _, f := range files {
			out = append(out, filepath.Base(f))
		}
		return out
	}
	files, err := Write(d)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"train.csv", "eval.csv", "reward.png", "reward.svg", "eval.png", "eval.svg", "critic.png", "critic.svg"}
	if got := names(files); !slices.Equal(got, want) {
		t.Errorf("before an evaluation's scatter: %v, want %v", got, want)
	}
	if Dir(files) != d.Dir || Dir(nil) != "—" {
		t.Errorf("Dir = %q, Dir(nil) = %q", Dir(files), Dir(nil))
	}
	train, err := os.ReadFile(filepath.Join(d.Dir, "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// reward 1 then 3 at weight 0.5: the debiased EMA is 1, then (0.25 + 1.5) / 0.75.
	wantCSV := "step,wall,reward,reward_ema,critic_loss,critic_hard,critic_penalty\n10,1,1,1,0.5,0,0\n20,2,3,2.3333333333333335,0.25,0,0\n"
	if string(train) != wantCSV {
		t.Errorf("train.csv:\n%s\nwant\n%s", train, wantCSV)
	}
	eval, _ := os.ReadFile(filepath.Join(d.Dir, "eval.csv"))
	if !strings.HasPrefix(string(eval), "step,wall,val_optimality_ratio\n20,2,0.9\n") {
		t.Errorf("eval.csv:\n%s", eval)
	}
	d.QHard, d.QSoft = []float64{1, 2}, []float64{1.5, 2.5}
	if files, err = Write(d); err != nil || !slices.Contains(names(files), "qscatter.png") || !slices.Contains(names(files), "qscatter.svg") {
		t.Errorf("after an evaluation's scatter: %v, %v", names(files), err)
	}
}

// svgText is the text of the SVG figure at path.
func svgText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestFiguresFollowTheConsole: after w the figures' x-axis is training time, not steps; a
// reference outside the metric's range is named in the legend, not drawn (the range fits the
// data, as on the console).
func TestFiguresFollowTheConsole(t *testing.T) {
	d := Data{
		Dir: t.TempDir(), Step: 300, Smoothing: 0.5,
		TrainStep: []float64{100, 200, 300}, TrainWall: []float64{10, 20, 30}, Train: map[string][]float64{"reward_mean": {1, 2, 3}},
		EvalStep: []float64{100, 200, 300}, EvalWall: []float64{10, 20, 30}, Metric: []float64{0.9944, 0.99, 0.9788},
		MetricName: "optimality_ratio", MetricLabel: "optimality ratio",
		Refs: []Ref{{"random", 0.728}, {"greedy", 0.985}},
	}
	if _, err := Write(d); err != nil {
		t.Fatal(err)
	}
	steps := svgText(t, filepath.Join(d.Dir, "reward.svg"))
	if !strings.Contains(steps, ">"+stepsLabel+"</text>") {
		t.Errorf("reward.svg has no %q axis", stepsLabel)
	}
	eval := svgText(t, filepath.Join(d.Dir, "eval.svg"))
	if !strings.Contains(eval, ">random 0.728 (below)</text>") || !strings.Contains(eval, ">greedy</text>") {
		t.Errorf("eval.svg does not name random as below and draw greedy")
	}
	d.WallX = true
	if _, err := Write(d); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"reward.svg", "eval.svg", "critic.svg"} {
		if got := svgText(t, filepath.Join(d.Dir, name)); !strings.Contains(got, ">"+timeLabel+"</text>") || strings.Contains(got, ">"+stepsLabel+"</text>") {
			t.Errorf("%s after w: no %q axis", name, timeLabel)
		}
	}
}

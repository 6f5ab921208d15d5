package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteFiles: the files written, qscatter.png only once an evaluation gave a scatter, and
// train.csv's columns (each smoothed series followed by its moving average).
func TestWriteFiles(t *testing.T) {
	d := Data{
		Dir: filepath.Join(t.TempDir(), "step-20"), Step: 20, Smoothing: 0.5,
		TrainStep: []float64{10, 20}, Train: map[string][]float64{"reward_mean": {1, 3}, "critic_loss": {0.5, 0.25}},
		EvalStep: []float64{20}, Metric: []float64{0.9}, MetricName: "optimality ratio", MetricLabel: "optimality ratio",
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
	want := []string{"train.csv", "eval.csv", "reward.png", "eval.png", "critic.png"}
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
	wantCSV := "step,reward,reward_ema,critic_loss,critic_hard,critic_penalty\n10,1,1,0.5,0,0\n20,3,2.3333333333333335,0.25,0,0\n"
	if string(train) != wantCSV {
		t.Errorf("train.csv:\n%s\nwant\n%s", train, wantCSV)
	}
	eval, _ := os.ReadFile(filepath.Join(d.Dir, "eval.csv"))
	if !strings.HasPrefix(string(eval), "step,val_optimality_ratio\n20,0.9\n") {
		t.Errorf("eval.csv:\n%s", eval)
	}
	d.QHard, d.QSoft = []float64{1, 2}, []float64{1.5, 2.5}
	if files, err = Write(d); err != nil || !slices.Contains(names(files), "qscatter.png") {
		t.Errorf("after an evaluation's scatter: %v, %v", names(files), err)
	}
}

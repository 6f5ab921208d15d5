package agent

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
)

// prevRuns are runs written by the version before the run contract moved to package run (see
// ../testdata/prev-run/README.md): their config.json and checkpoints name no model.
const prevRuns = "../testdata/prev-run"

// copyRun copies the run called name into a temporary directory.
func copyRun(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(prevRuns, name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// timeless is a record without what depends on the machine's speed.
func timeless(recs []run.Record) []run.Record {
	out := make([]run.Record, len(recs))
	for i, r := range recs {
		r.Wall = 0
		if r.Train != nil {
			tr := *r.Train
			tr.StepsPerSec = 0
			r.Train = &tr
		}
		out[i] = r
	}
	return out
}

// A run of the previous version resumes to the records that version made when it resumed the
// same run, after sending the run's history first. They were made with gonum's BLAS; the
// default build now multiplies on linalg/gemm (another summation order), so numbers are
// compared to float32 rounding carried over a few steps, everything else exactly.
func TestResumeRunOfThePreviousVersion(t *testing.T) {
	for _, tc := range []struct{ name, model string }{{"mwm5", "spg-matching"}, {"sort5", "spg-sequential"}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRun(t, tc.name)
			history := readMetrics(t, dir)
			want, err := run.ReadRecords(filepath.Join(prevRuns, tc.name+".resumed-to-30.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			e, err := ResumeRun(dir, 30, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m := e.Config().Model; m != tc.model {
				t.Errorf("model %q, want %q", m, tc.model)
			}
			var got []run.Record
			run.Follow(e.Records(), func(r run.Record) { got = append(got, r) })
			waitDone(t, e)
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
			if h := e.Info().History; h != len(history) {
				t.Errorf("Info().History = %d, want %d", h, len(history))
			}
			if len(settled(got)) != len(history)+len(want) {
				t.Fatalf("%d records, want %d of history and %d new", len(got), len(history), len(want))
			}
			if !reflect.DeepEqual(got[:len(history)], history) {
				t.Error("the history sent first is not the run's metrics.jsonl")
			}
			got, want = timeless(settled(got[len(history):])), timeless(want)
			for i := range want {
				// The previous version's start events carry no run identity, nor the device.
				if e := got[i].Event; e != nil && want[i].Event != nil && want[i].Event.RunID == "" {
					stripped := *e
					stripped.RunID, stripped.Device = "", ""
					got[i].Event = &stripped
				}
				// Nor do its samples carry M's entropy and Birkhoff number.
				if ev := got[i].Eval; ev != nil && want[i].Eval != nil && len(ev.Samples) > 0 && want[i].Eval.Samples[0].Birkhoff == 0 {
					stripped := *ev
					stripped.Samples = slices.Clone(ev.Samples)
					for j := range stripped.Samples {
						stripped.Samples[j].Entropy, stripped.Samples[j].Birkhoff = 0, 0
					}
					got[i].Eval = &stripped
				}
				if err := sameRecord(got[i], want[i]); err != nil {
					t.Errorf("record %d after the resume: %v", i, err)
				}
			}
			cfg, err := run.ReadRunConfig(dir)
			if err != nil || cfg.Model != tc.model || cfg.Steps != 30 {
				t.Errorf("config.json after the resume: model %q, steps %d, %v", cfg.Model, cfg.Steps, err)
			}
		})
	}
}

// The best checkpoint of a run of the previous version loads as a policy and solves instances
// of its task.
func TestPolicyOfThePreviousVersion(t *testing.T) {
	for _, name := range []string{"mwm5", "sort5"} {
		p, err := eval.LoadPolicy(filepath.Join(prevRuns, name), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg := p.Config()
		env, err := envs.New(cfg.Task, cfg.N)
		if err != nil {
			t.Fatal(err)
		}
		insts := []envs.Instance{env.Generate(3, 0), env.Generate(3, 1)}
		sols, err := p.Solve(env, insts)
		if err != nil || len(sols) != 2 {
			t.Fatalf("%s: %d solutions, %v", name, len(sols), err)
		}
		if p.Step() != 10 || cfg.Model != run.DefaultModel(cfg.Task) {
			t.Errorf("%s: step %d, model %q", name, p.Step(), cfg.Model)
		}
	}
}

// sameRecord compares two records through their JSON: numbers to a relative 1e-3 (rounding of
// another GEMM kernel over a few training steps; a wrongly restored state differs by far more),
// everything else exactly.
func sameRecord(got, want run.Record) error {
	var g, w any
	for _, x := range []struct {
		r   run.Record
		dst *any
	}{{got, &g}, {want, &w}} {
		b, err := json.Marshal(x.r)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, x.dst); err != nil {
			return err
		}
	}
	return sameJSON("", g, w)
}

// sameJSON compares decoded JSON values, numbers to a relative 1e-3.
func sameJSON(path string, g, w any) error {
	switch wv := w.(type) {
	case float64:
		gv, ok := g.(float64)
		if !ok || math.Abs(gv-wv) > 1e-3*(1+math.Abs(wv)) {
			return fmt.Errorf("%s: got %v, want %v", path, g, w)
		}
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Errorf("%s: got %v, want %v", path, g, w)
		}
		for k := range wv {
			if err := sameJSON(path+"."+k, gv[k], wv[k]); err != nil {
				return err
			}
		}
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Errorf("%s: got %v, want %v", path, g, w)
		}
		for i := range wv {
			if err := sameJSON(fmt.Sprintf("%s[%d]", path, i), gv[i], wv[i]); err != nil {
				return err
			}
		}
	default:
		if !reflect.DeepEqual(g, w) {
			return fmt.Errorf("%s: got %v, want %v", path, g, w)
		}
	}
	return nil
}

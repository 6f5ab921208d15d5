package agent

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestSampledValidation checks that a run with ValSamples reports each validation's sampled
// decode beside the single one, never below it, and trains exactly as the same run without.
func TestSampledValidation(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 6)
	plain := learningRecords(readMetrics(t, trainToEnd(t, cfg)))
	cfg.ValSamples = 4
	sampled := learningRecords(readMetrics(t, trainToEnd(t, cfg)))
	if len(plain) != len(sampled) {
		t.Fatalf("%d records without sampling, %d with", len(plain), len(sampled))
	}
	vals := 0
	for i, a := range plain {
		b := sampled[i]
		switch {
		case a.Train != nil:
			if b.Train == nil || a.Train.RewardMean != b.Train.RewardMean || a.Train.CriticLoss != b.Train.CriticLoss {
				t.Fatalf("step %d: training differs with sampled validations: %+v vs %+v", a.Step, a.Train, b.Train)
			}
		case a.Eval != nil && a.Split == "val":
			vals++
			if b.Eval == nil || b.Metric != a.Metric || a.Sampled != nil {
				t.Fatalf("step %d: single-decode validation %v without sampling, %v with", a.Step, a.Metric, b.Metric)
			}
			if s := b.Sampled; s == nil || s.Samples != 4 || s.Metric < b.Metric-1e-12 {
				t.Fatalf("step %d: sampled validation %+v beside the single decode's %v", b.Step, s, b.Metric)
			}
		}
	}
	if vals == 0 {
		t.Fatal("no validations")
	}
}

// learningRecords keeps the training summaries and evaluations of recs: events (checkpoints
// among them, whose cheap ones follow the wall clock) may differ between two identical runs.
func learningRecords(recs []run.Record) []run.Record {
	var out []run.Record
	for _, r := range recs {
		if r.Train != nil || r.Eval != nil {
			out = append(out, r)
		}
	}
	return out
}

// TestValSamplesSetting checks the live setting's one-line refusals: out of range, and for a
// model without a Sinkhorn layer.
func TestValSamplesSetting(t *testing.T) {
	c := tinyConfig(envs.TaskMWM, 6)
	if _, _, err := run.Change(c, run.ParamValSamples, 16, 0); err != nil {
		t.Errorf("val-samples 16 on SPG+Matching: %v", err)
	}
	if _, _, err := run.Change(c, run.ParamValSamples, run.MaxSamples+1, 0); err == nil {
		t.Error("val-samples above the bound accepted")
	}
	c.Model = "ac-matching"
	if _, _, err := run.Change(c, run.ParamValSamples, 16, 0); err == nil {
		t.Error("val-samples accepted for a critic-free model")
	}
}

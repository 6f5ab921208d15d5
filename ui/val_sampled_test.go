package ui

import (
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// With the validations' sampled decode on, the header shows its K and the events give each
// validation's sampled score beside the single one.
func TestValSampledShown(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	if h := strip(m.header.View()); strings.Contains(h, "val sampled") {
		t.Errorf("the header shows sampling while it is off:\n%s", h)
	}
	m.ctx.cfg.ValSamples = 16
	if h := strip(m.header.View()); !strings.Contains(h, "val sampled K 16") {
		t.Errorf("the header does not show K = 16:\n%s", h)
	}
	m.ctx.data.add(run.Record{Kind: run.KindEval, Step: 500, Eval: &run.Eval{Split: "val", MetricName: "optimality_ratio",
		Metric: 0.91, Sampled: &run.SampledEval{Samples: 16, Metric: 0.97}}})
	events := strings.Join(m.ctx.data.events, "\n")
	if !strings.Contains(events, "val ratio 0.91") || !strings.Contains(events, "val K16 ratio 0.97") {
		t.Errorf("the events lack the single and sampled validations:\n%s", events)
	}
}

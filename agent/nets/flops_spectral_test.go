package nets

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// spg-gm-spectral's step counts its eigendecompositions and similarity product on top of
// spg-gm-logstep's (which it otherwise is): 20 n³ per fresh state, 2.5 MFLOP at N = 50.
func TestStepFLOPsCountsTheEigensolver(t *testing.T) {
	const n, batch = 50, 128
	flops := map[string]float64{}
	for _, model := range []string{run.ModelGMLogStep, run.ModelGMSpectral} {
		cfg := run.DefaultConfig(envs.TaskGM, n)
		cfg.Model, cfg.Batch = model, batch
		spec, err := run.Resolve(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if flops[model] = StepFLOPs(spec); flops[model] <= 0 {
			t.Fatalf("%s: StepFLOPs %v", model, flops[model])
		}
	}
	if got, want := flops[run.ModelGMSpectral]-flops[run.ModelGMLogStep], float64(batch)*20*n*n*n; got != want {
		t.Errorf("spg-gm-spectral counts %v FLOPs more than spg-gm-logstep a step, want %v (2 x 9n³ + 2n³ per state)", got, want)
	}
}

package experiments

import (
	"fmt"
	"math"

	"spg-tui/run"
	"spg-tui/run/stats"
)

// samplingSection sets every arm's single and sampled decodes of its test set side by side,
// with the time per instance of each, for an experiment that samples.
func (w *reportWriter) samplingSection(r *Results) {
	s := r.Manifest.Sampling
	if s == nil {
		return
	}
	w.linef("## Single and sampled decodes on the test set")
	w.linef("")
	w.linef("Sampled: the best of %d candidates per view (the single decode, then Gumbel-perturbed Sinkhorn samples, gumbel-scale %g%s, each rounded by the Hungarian algorithm)%s, noise seed %d. Cells are the mean across seeds of each seed's mean test metric, ± sd; times are wall milliseconds per instance, mean across seeds.",
		s.Samples, s.GumbelScale, map[bool]string{true: " in units of each view's spread of the actor's scores over N^2", false: ""}[s.Units() == run.NoiseRelative], map[bool]string{true: " over the instance and its 8 images under the symmetries of the unit square", false: ""}[s.Augment], s.Seed)
	w.linef("")
	w.linef("| arm | single decode | sampled (%s) | ms per instance, single / sampled |", s)
	w.linef("|---|---|---|---|")
	for i, a := range r.Preset.Arms {
		var single, sampled, singleMS, sampledMS []float64
		for _, sr := range r.Arms[i] {
			if sr.Test == nil || sr.Test.Sampled == nil {
				continue
			}
			seed := fmt.Sprintf("seed %d", sr.Seed)
			single = append(single, sr.Test.Mean)
			sampled = append(sampled, sr.Test.Sampled.Mean)
			singleMS = append(singleMS, sr.Test.Sampled.SingleMS)
			sampledMS = append(sampledMS, sr.Test.Sampled.SampledMS)
			w.number("sampling", a.Label, "single", -1, seed, sr.Test.Mean, 1)
			w.number("sampling", a.Label, "sampled", -1, seed, sr.Test.Sampled.Mean, 1)
			w.number("sampling", a.Label, "single_ms_per_instance", -1, seed, sr.Test.Sampled.SingleMS, 1)
			w.number("sampling", a.Label, "sampled_ms_per_instance", -1, seed, sr.Test.Sampled.SampledMS, 1)
		}
		if len(r.Arms[i]) == 0 {
			continue
		}
		w.linef("| %s | %s | %s | %s / %s |", a.Label,
			meanSD(w.summary("sampling", a.Label, "single", single)),
			meanSD(w.summary("sampling", a.Label, "sampled", sampled)),
			fmtNaN("%.2f", stats.Mean(singleMS)), fmtNaN("%.2f", stats.Mean(sampledMS)))
	}
	w.linef("")
}

// meanSD is "0.988 ± 0.003 (n 3)", "—" for an empty sample.
func meanSD(s stats.Summary) string {
	if s.N == 0 || math.IsNaN(s.Mean) {
		return "—"
	}
	return fmt.Sprintf("%.4f ± %.4f (n %d)", s.Mean, s.Std, s.N)
}

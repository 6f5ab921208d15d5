package experiments

import (
	"fmt"

	"spg-tui/envs"
	"spg-tui/run"
)

// Sampling is how an experiment decodes its test sets beside the single decode (see
// eval.Decoding): Samples candidates per view, the single decode first and then
// Gumbel-perturbed Sinkhorn samples of noise scale GumbelScale in the units Noise names, over
// the 8 symmetries of the unit square with Augment, the best kept; the noise is seeded by Seed.
type Sampling struct {
	Samples     int     `json:"samples"`
	GumbelScale float64 `json:"gumbel_scale"`
	// Noise is run.NoiseRelative or run.NoiseAbsolute; "" (experiments made before noise
	// could be relative) is absolute.
	Noise   string `json:"gumbel_noise,omitempty"`
	Augment bool   `json:"augment"`
	Seed    uint64 `json:"seed"`
}

// Units is the units of GumbelScale: run.NoiseRelative or run.NoiseAbsolute.
func (s Sampling) Units() string {
	if s.Noise == "" {
		return run.NoiseAbsolute
	}
	return s.Noise
}

// String is how reports name the sampling: "K = 16, x8, gumbel-scale 12 relative", or
// "K = 16, x8, gumbel-scale 0.003" for absolute noise.
func (s Sampling) String() string {
	aug := ""
	if s.Augment {
		aug = ", x8"
	}
	units := ""
	if s.Units() == run.NoiseRelative {
		units = " relative"
	}
	return fmt.Sprintf("K = %d%s, gumbel-scale %g%s", s.Samples, aug, s.GumbelScale, units)
}

// SampleScorer solves instances with the sampled decode of the policy a run's validation
// selected: eval.LoadPolicy and Policy.SolveWith in the program.
type SampleScorer func(dir string, env envs.Env, insts []envs.Instance, s Sampling) ([]envs.Solution, error)

// SampledScore is a run's sampled decode on a test set, with the time per instance of each
// decode (wall time, the checkpoint's loading included).
type SampledScore struct {
	Sampling Sampling `json:"sampling"`
	// Metric is the task metric of each instance; Mean and Median summarise it.
	Metric       []float64 `json:"metric"`
	Mean, Median float64
	SingleMS     float64 `json:"single_ms_per_instance"`
	SampledMS    float64 `json:"sampled_ms_per_instance"`
}

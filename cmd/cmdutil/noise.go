package cmdutil

import (
	"flag"
	"fmt"

	"spg-tui/run"
)

// NoiseFlags registers --gumbel-scale and --gumbel-noise into dec, as eval and experiment
// take them.
func NoiseFlags(fs *flag.FlagSet, dec *run.Decoding) {
	fs.Float64Var(&dec.GumbelScale, "gumbel-scale", dec.GumbelScale, "scale of the Gumbel(0, 1) noise added to the actor's scores X before Sinkhorn((X + noise) / tau), in units of --gumbel-noise (eval, relative, unset: the model's: 12, 96 for spg-successor, 0.2 N^2 for spg-successor-local and -graph)")
	fs.StringVar(&dec.Noise, "gumbel-noise", run.NoiseRelative, "units of --gumbel-scale: relative (of each instance's spread of the actor's scores X, their root mean square once row and column means are removed, divided by N^2) or absolute (of X)")
}

// CheckNoiseFlags refuses, in one line, sampling-noise flags that would be misread or ignored:
// an empty --gumbel-noise, which an experiment's manifest reads as the absolute noise of
// directories made before the flag (12 in the units of X) while eval reads it as relative; and
// --gumbel-noise or --gumbel-scale with the single decode, which draws no noise.
func CheckNoiseFlags(fs *flag.FlagSet, dec run.Decoding) error {
	if dec.Noise == "" {
		return fmt.Errorf("--gumbel-noise \"\": must be %s or %s", run.NoiseRelative, run.NoiseAbsolute)
	}
	if !dec.Single() {
		return nil
	}
	for _, name := range []string{"gumbel-noise", "gumbel-scale"} {
		if Given(fs, name) {
			return fmt.Errorf("--%s: the single decode adds no noise (give --samples K > 1 or --augment)", name)
		}
	}
	return nil
}

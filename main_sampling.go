package main

import (
	"fmt"

	"spg-tui/agent"
	"spg-tui/run"
)

// checkNoiseFlags refuses, in one line, an empty --gumbel-noise: an experiment's manifest reads
// it as the absolute noise of directories made before the flag (12 in the units of X), while
// eval read it as relative.
func checkNoiseFlags(dec agent.Decoding) error {
	if dec.Noise == "" {
		return fmt.Errorf("--gumbel-noise \"\": must be %s or %s", run.NoiseRelative, run.NoiseAbsolute)
	}
	return nil
}

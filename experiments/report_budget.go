package experiments

import (
	"fmt"
	"math"
	"strings"

	"spg-tui/run"
)

// stepsLine states the steps each arm's runs trained, the arms that agree in one clause, with an
// epoch arm's epochs and batches and, at a scale below 1, the scale's share of the arm's budget
// at scale 1 where the two differ: an epoch is a whole number of batches, so at scale 0.001 the
// paper's 20 epochs of MWM-10 are 60 steps where 0.001 of its 78,120 is 78.
func (w *reportWriter) stepsLine(r *Results) {
	m := r.Manifest
	full := map[int]int{}
	if o, err := m.options(1); err == nil {
		o.Scale = 1
		if _, runs, err := Expand(o); err == nil {
			for _, pl := range runs {
				full[pl.Arm] = pl.Config.Steps
			}
		}
	}
	var texts []string
	arms := map[string][]string{}
	for i, runs := range r.Arms {
		if len(runs) == 0 {
			continue
		}
		text := armStepsText(r.Preset.Arms[i], runs[0].Config, m.Scale, full[i])
		if arms[text] == nil {
			texts = append(texts, text)
		}
		arms[text] = append(arms[text], r.Preset.Arms[i].Label)
	}
	if len(texts) == 0 {
		return
	}
	clauses := make([]string, len(texts))
	for i, t := range texts {
		clauses[i] = strings.Join(arms[t], ", ") + ": " + t
	}
	w.linef("- Steps each run trained: %s.", strings.Join(clauses, "; "))
}

// armStepsText is what stepsLine says of arm a, whose runs have configuration c at scale, and
// full steps at scale 1 (0 when unknown).
func armStepsText(a Arm, c run.Config, scale float64, full int) string {
	switch {
	case c.Steps == 1:
		return "1 step (the untrained policy)"
	case a.Steps > 0:
		return fmt.Sprintf("%d steps at every scale", c.Steps)
	}
	text := fmt.Sprintf("%d steps, %g epochs of %d (%d training instances in batches of %d)",
		c.Steps, a.Epochs, c.StepsPerEpoch(), c.TrainSize, c.Batch)
	if share := scale * float64(full); full > 0 && scale < 1 && math.Abs(share-float64(c.Steps)) >= 0.5 {
		text += fmt.Sprintf(", where %g of the %d steps at scale 1 would be %.4g", scale, full, share)
	}
	return text
}

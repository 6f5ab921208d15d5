package run

import (
	"fmt"
	"slices"
	"strings"

	"spg-tui/envs"
)

// MaxSamples bounds the candidates per view of a sampled decode, wherever it is asked for
// (eval's and experiment's --samples, a run's --val-samples): the decode's memory is a few N^2
// buffers per worker, but its time grows linearly.
const MaxSamples = 4096

// MaxGumbelScale bounds Decoding.GumbelScale: far above it the noise overflows float32 and the
// decode fails on NaN scores after an experiment's training, and already at it every sample is
// noise alone (eval's sampled objective was the same at 1e6, 1e15 and 1e30, relative or absolute).
const MaxGumbelScale = 1e6

// MaxPatchWeight bounds Decoding.PatchWeight: log M spans about 1e4/tau at most (the successor
// actor's self-loop score), so far above it distances no longer count.
const MaxPatchWeight = 1e6

// Decoding says how a policy turns an instance into a permutation at inference: eval's flags,
// an experiment's test decodes (its manifest's "sampling", hence the JSON names) and the
// validations' sampled decode. The single decode (Samples 1, no Augment) rounds the actor's
// M = S^L(X/tau) by the Hungarian algorithm, as training's evaluations do. Otherwise every view
// of the instance (the instance itself, and with Augment its images under the 8 symmetries of
// the unit square) gives Samples candidates: the single decode of that view, then Samples-1
// Gumbel-perturbed ones, Hungarian(S^L((X + s g)/tau)) with g i.i.d. Gumbel(0, 1) and s the
// GumbelScale; the candidate with the best objective on the original instance is kept (the
// first, on ties). The single decode of the instance itself is the first candidate, so sampling
// never scores worse than it.
type Decoding struct {
	Samples int `json:"samples"`
	// GumbelScale is s, in units of ScoreSpread(X)/N^2 with relative noise (each view its
	// own), or in the units of X with absolute noise.
	GumbelScale float64 `json:"gumbel_scale"`
	// Noise is NoiseRelative or NoiseAbsolute; "" (an experiment made before noise could be
	// relative) is absolute (Units).
	Noise   string `json:"gumbel_noise,omitempty"`
	Augment bool   `json:"augment"`
	// Seed seeds the noise: instance i's view v draws from a generator seeded by (Seed, 8i+v),
	// so the answer does not depend on the number of cores.
	Seed uint64 `json:"seed"`
	// Rounding overrides the policy's own rounding of every candidate: RoundingM (the Hungarian
	// maximum of M) or RoundingLog (of log M, that is of the actor's scores X); "" keeps the
	// run's.
	Rounding string `json:"rounding,omitempty"`
	// Tour is how a successor action's candidates become tours: DecodePatch (also ""),
	// DecodePatchScores or DecodeGreedy.
	Tour string `json:"tour_decode,omitempty"`
	// PatchWeight is DecodePatchScores's weight of the policy's log-probabilities against
	// distance (see learn.ActionDecoder.PatchByScores).
	PatchWeight float64 `json:"patch_weight,omitempty"`
	// Repair is the local search that improves every candidate tour before the best is kept:
	// RepairNone (also ""), Repair2Opt, Repair2OptScores or RepairLocalSearch.
	Repair string `json:"tour_repair,omitempty"`
}

// How a successor action's candidate tours are repaired before the best is kept (eval's
// --tour-repair). A repair is a search, not the policy: eval reports it as part of the decode's
// name and time.
const (
	// RepairNone keeps the candidates as decoded.
	RepairNone = "none"
	// Repair2Opt takes every improving 2-opt move (tsp.TwoOpt) to a 2-opt local optimum.
	Repair2Opt = "2opt"
	// Repair2OptScores takes the 2-opt moves that add an edge from a city to one of the
	// RepairScoreCandidates cities the policy scores highest from it (log M_ij + log M_ji), until
	// none gains (tsp.TwoOptNear): the search the policy's scores guide.
	Repair2OptScores = "2opt-scores"
	// RepairLocalSearch alternates 2-opt and or-opt until neither gains (tsp.LocalSearch).
	RepairLocalSearch = "2opt-oropt"
)

// RepairScoreCandidates is how many of the policy's highest-scoring cities Repair2OptScores
// tries joining to each city.
const RepairScoreCandidates = 10

// Repaired reports whether d repairs its candidate tours.
func (d Decoding) Repaired() bool { return d.Repair != "" && d.Repair != RepairNone }

// How a successor action's candidates become tours (eval's --tour-decode). The default,
// DecodePatch, is the environment's: the cover patched by distance, as in training.
const (
	// DecodePatch patches the Hungarian cover by Karp's patching on distances alone.
	DecodePatch = "patch"
	// DecodePatchScores patches the cover on distances less PatchWeight times the policy's
	// log M, symmetrised.
	DecodePatchScores = "patch-scores"
	// DecodeGreedy builds the tour from the policy's log M alone, edges in decreasing
	// log M_ij + log M_ji (envs/tsp.GreedyEdges): no cover, no patching.
	DecodeGreedy = "greedy"
)

// TourDecodes and TourRepairs are the names of the tour decodes and repairs.
var (
	TourDecodes = []string{DecodePatch, DecodePatchScores, DecodeGreedy}
	TourRepairs = []string{RepairNone, Repair2Opt, Repair2OptScores, RepairLocalSearch}
)

// NotOneOf is the one-line refusal of value for the setting name, which takes one of names.
func NotOneOf(name, value string, names []string) error {
	return fmt.Errorf("%s %q: must be %s or %s", name, value, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// PolicyTour reports whether d decodes tours otherwise than the environment's patching.
func (d Decoding) PolicyTour() bool { return d.Tour != "" && d.Tour != DecodePatch }

// TourRefused says why model m cannot decode by dec's tour decode or repair, or nil: only a
// successor action's candidates are covers to patch, scores over edges and tours to repair, so
// another model refuses any decode or repair named, patch and none included ("" names none).
func TourRefused(m Model, dec Decoding) error {
	switch {
	case m.Successor:
		return nil
	case dec.Tour != "":
		return fmt.Errorf("tour-decode %s: %s has no successor action (only %s do)", dec.Tour, m.Title, successorModels())
	case dec.Repair != "":
		return fmt.Errorf("tour-repair %s: %s has no successor action (only %s do)", dec.Repair, m.Title, successorModels())
	}
	return nil
}

// Units is the units of GumbelScale: NoiseRelative or NoiseAbsolute.
func (d Decoding) Units() string {
	if d.Noise == "" {
		return NoiseAbsolute
	}
	return d.Noise
}

// Single reports whether d is the single decode.
func (d Decoding) Single() bool { return d.Samples == 1 && !d.Augment }

// Views is the number of views of each instance: 8 with Augment, else 1.
func (d Decoding) Views() int {
	if d.Augment {
		return envs.SquareSymmetries
	}
	return 1
}

// Validate reports, in one line, a decoding that task cannot use or whose settings are out of
// range.
func (d Decoding) Validate(task envs.Task) error {
	switch {
	case d.Samples < 1 || d.Samples > MaxSamples:
		return fmt.Errorf("samples %d: must be in [1, %d]", d.Samples, MaxSamples)
	case !(d.GumbelScale > 0 && d.GumbelScale <= MaxGumbelScale):
		return fmt.Errorf("gumbel-scale %v: must be in (0, %g]", d.GumbelScale, float64(MaxGumbelScale))
	case d.Noise != "" && d.Noise != NoiseRelative && d.Noise != NoiseAbsolute:
		return fmt.Errorf("gumbel-noise %q: must be %s (in units of the spread of the actor's scores) or %s", d.Noise, NoiseRelative, NoiseAbsolute)
	case d.Augment && !envs.MustFacts(task).Planar:
		return fmt.Errorf("augment: %s instances are not points in the unit square", task)
	case d.Rounding != "" && d.Rounding != RoundingM && d.Rounding != RoundingLog:
		return fmt.Errorf("rounding %q: must be %s (of M) or %s (of log M)", d.Rounding, RoundingM, RoundingLog)
	case d.Tour != "" && !slices.Contains(TourDecodes, d.Tour):
		return NotOneOf("tour-decode", d.Tour, TourDecodes)
	case !(d.PatchWeight >= 0 && d.PatchWeight <= MaxPatchWeight):
		return fmt.Errorf("patch-weight %v: must be in [0, %g]", d.PatchWeight, float64(MaxPatchWeight))
	case d.PatchWeight != 0 && d.Tour != DecodePatchScores:
		return fmt.Errorf("patch-weight %v: only tour-decode %s weighs the scores", d.PatchWeight, DecodePatchScores)
	case d.Repair != "" && !slices.Contains(TourRepairs, d.Repair):
		return NotOneOf("tour-repair", d.Repair, TourRepairs)
	case d.Repaired() && !envs.MustFacts(task).PointTour():
		return fmt.Errorf("tour-repair %s: %s solutions are not tours of points", d.Repair, task)
	}
	return nil
}

// String is how reports name the sampling: "K = 16, x8, gumbel-scale 12 relative", or
// "K = 16, x8, gumbel-scale 0.003" for absolute noise.
func (d Decoding) String() string {
	aug := ""
	if d.Augment {
		aug = ", x8"
	}
	units := ""
	if d.Units() == NoiseRelative {
		units = " relative"
	}
	return fmt.Sprintf("K = %d%s, gumbel-scale %g%s", d.Samples, aug, d.GumbelScale, units)
}

// setValSamples sets the validations' sampled decode to k candidates, storing the single decode
// (1) as 0, the value of a configuration without the setting, so that both write the same
// config.json.
func (c *Config) setValSamples(k int) {
	if k == 1 {
		k = 0
	}
	c.ValSamples = k
}

// The units of a sampled decode's Gumbel noise scale (eval's and experiment's --gumbel-noise).
// Relative noise is in units of each instance's spread of the actor's scores X, so the sampled
// decode does not depend on the scale of X an actor happened to learn, as the rounding by log M
// does not: best's TSP-20 actors differ in spread by 20x between actor rates 1e-5 and 1e-4.
const (
	NoiseRelative = "relative"
	NoiseAbsolute = "absolute"
)

// successorModels names the models with a successor action: "spg-successor, ... and ...".
func successorModels() string {
	var names []string
	for _, m := range Models {
		if m.Successor {
			names = append(names, m.Name)
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

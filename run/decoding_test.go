package run

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestDecodingValidate checks the one-line refusals of bad decodings.
func TestDecodingValidate(t *testing.T) {
	for _, c := range []struct {
		dec  Decoding
		task envs.Task
		want string
	}{
		{Decoding{Samples: 0, GumbelScale: 1}, envs.TaskTSP, "samples 0"},
		{Decoding{Samples: MaxSamples + 1, GumbelScale: 1}, envs.TaskTSP, "samples"},
		{Decoding{Samples: 2, GumbelScale: math.NaN()}, envs.TaskMWM, "gumbel-scale NaN"},
		{Decoding{Samples: 2, GumbelScale: 0}, envs.TaskMWM, "gumbel-scale 0"},
		{Decoding{Samples: 2, GumbelScale: MaxGumbelScale * 2}, envs.TaskMWM, "gumbel-scale 2e+06: must be"},
		{Decoding{Samples: 2, GumbelScale: 1e308, Noise: NoiseAbsolute}, envs.TaskMWM, "gumbel-scale 1e+308"},
		{Decoding{Samples: 2, GumbelScale: 1, Augment: true}, envs.TaskSort, "augment: sort"},
		{Decoding{Samples: 2, GumbelScale: 1, Noise: "rel"}, envs.TaskMWM, `gumbel-noise "rel"`},
		{Decoding{Samples: 1, GumbelScale: 1, Rounding: "x"}, envs.TaskMWM, `rounding "x"`},
		{Decoding{Samples: 1, GumbelScale: 1, Tour: "2opt"}, envs.TaskTSP, `tour-decode "2opt": must be patch, patch-scores or greedy`},
		{Decoding{Samples: 1, GumbelScale: 1, Tour: DecodePatchScores, PatchWeight: -1}, envs.TaskTSP, "patch-weight -1: must be in [0, 1e+06]"},
		{Decoding{Samples: 1, GumbelScale: 1, Tour: DecodePatchScores, PatchWeight: math.NaN()}, envs.TaskTSP, "patch-weight NaN"},
		{Decoding{Samples: 1, GumbelScale: 1, Tour: DecodePatchScores, PatchWeight: math.Inf(1)}, envs.TaskTSP, "patch-weight +Inf"},
		{Decoding{Samples: 1, GumbelScale: 1, Tour: DecodeGreedy, PatchWeight: 1}, envs.TaskTSP, "patch-weight 1: only tour-decode patch-scores"},
		{Decoding{Samples: 1, GumbelScale: 1, Repair: "3opt"}, envs.TaskTSP, `tour-repair "3opt": must be none, 2opt, 2opt-scores or 2opt-oropt`},
		{Decoding{Samples: 1, GumbelScale: 1, Repair: Repair2Opt}, envs.TaskMWM, "tour-repair 2opt: mwm solutions are not tours"},
	} {
		err := c.dec.Validate(c.task)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v on %s: error %v, want one line containing %q", c.dec, c.task, err, c.want)
		}
	}
	for _, ok := range []Decoding{
		{Samples: 128, GumbelScale: MaxGumbelScale, Augment: true},
		{Samples: 1, GumbelScale: 1, Tour: DecodePatchScores, PatchWeight: MaxPatchWeight},
		{Samples: 1, GumbelScale: 1, Tour: DecodeGreedy},
		{Samples: 1, GumbelScale: 1, Tour: DecodePatch},
		{Samples: 1, GumbelScale: 1, Repair: RepairNone},
		{Samples: 4, GumbelScale: 1, Tour: DecodeGreedy, Repair: RepairLocalSearch},
	} {
		if err := ok.Validate(envs.TaskTSP); err != nil {
			t.Errorf("a valid decoding %+v refused: %v", ok, err)
		}
	}
}

// TestSamplesOneLimit checks that --val-samples has the bound of --samples, and that its single
// decode, 1, is stored as 0 whether it came by flag or by a live change.
func TestSamplesOneLimit(t *testing.T) {
	c := DefaultConfig(envs.TaskMWM, 10)
	c.Steps = 10
	c.ValSamples = MaxSamples
	if err := c.Validate(); err != nil {
		t.Errorf("val-samples %d (the --samples bound) refused: %v", MaxSamples, err)
	}
	c.ValSamples = MaxSamples + 1
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "val-samples 4097: must be in [0, 4096]") {
		t.Errorf("val-samples above the bound: %v", err)
	}
	c.ValSamples = 0
	c.ValSamples = 8
	if got, _, err := Change(c, ParamValSamples, 1, 0); err != nil || got.ValSamples != 0 {
		t.Errorf("live val-samples 1: stored %d, %v; want 0", got.ValSamples, err)
	}
	fromFlag, err := parseTrainFlags("--task", "mwm", "--n", "10", "--steps", "10", "--val-samples", "1")
	if err != nil || fromFlag.ValSamples != 0 {
		t.Errorf("--val-samples 1 stored as %d, %v; want 0", fromFlag.ValSamples, err)
	}
}

// TestDecodingJSON checks that a manifest's sampling written before noise could be relative
// (no gumbel_noise) reads as absolute noise, and that the decoding writes the JSON names
// experiment manifests already on disk use, without a rounding it does not set.
func TestDecodingJSON(t *testing.T) {
	var legacy Decoding
	if err := json.Unmarshal([]byte(`{"samples": 16, "gumbel_scale": 0.003, "augment": true, "seed": 1}`), &legacy); err != nil {
		t.Fatal(err)
	}
	if legacy.Units() != NoiseAbsolute || legacy.String() != "K = 16, x8, gumbel-scale 0.003" {
		t.Errorf("a sampling without gumbel_noise: units %s, named %q", legacy.Units(), legacy)
	}
	b, err := json.Marshal(Decoding{Samples: 16, GumbelScale: 12, Noise: NoiseRelative, Seed: 1})
	if want := `{"samples":16,"gumbel_scale":12,"gumbel_noise":"relative","augment":false,"seed":1}`; err != nil || string(b) != want {
		t.Errorf("written as %s, %v; want %s", b, err, want)
	}
}

package run

import (
	"math"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestBoundsRefused sets each bounded field just above its bound and checks that Validate
// names the field and the bound, and that the bound itself is accepted.
func TestBoundsRefused(t *testing.T) {
	for _, tc := range []struct {
		name       string
		over, at   func(*Config)
		wantInText string
	}{
		{"sinkhorn-iters", func(c *Config) { c.SinkhornIters = MaxSinkhornIters + 1 }, func(c *Config) { c.SinkhornIters = MaxSinkhornIters }, "at most 1000"},
		{"batch", func(c *Config) { c.Batch = MaxBatch + 1 }, func(c *Config) { c.Batch = MaxBatch; c.Buffer = MaxBatch; c.TrainSize = MaxBatch }, "at most 65536"},
		{"train-size", func(c *Config) { c.TrainSize = MaxTrainSize + 1 }, func(c *Config) { c.TrainSize = MaxTrainSize }, "at most 10000000"},
		{"val-size", func(c *Config) { c.ValSize = 1_000_000_000 }, func(c *Config) { c.ValSize = MaxEvalSize }, "at most 1000000"},
		{"test-size", func(c *Config) { c.TestSize = MaxEvalSize + 1 }, func(c *Config) { c.TestSize = MaxEvalSize }, "at most 1000000"},
		{"buffer", func(c *Config) { c.Buffer = 1e12 }, func(c *Config) { c.Buffer = MaxBuffer }, "at most 2147483648"},
		{"steps", func(c *Config) { c.Steps = MaxSteps + 1 }, func(c *Config) { c.Steps = MaxSteps }, "at most 1000000000"},
		{"tau", func(c *Config) { c.Tau = 1e-300 }, func(c *Config) { c.Tau = MinTau }, "[0.0001, 10000]"},
		{"tau", func(c *Config) { c.Tau = 1e5 }, func(c *Config) { c.Tau = MaxTau }, "[0.0001, 10000]"},
		// The one check of tau names its range for every tau outside it, whatever kind.
		{"tau", func(c *Config) { c.Tau = 0 }, func(c *Config) { c.Tau = MinTau }, "[0.0001, 10000]"},
		{"tau", func(c *Config) { c.Tau = -1 }, func(c *Config) { c.Tau = MinTau }, "[0.0001, 10000]"},
		{"tau", func(c *Config) { c.Tau = math.NaN() }, func(c *Config) { c.Tau = MinTau }, "[0.0001, 10000]"},
		{"tau", func(c *Config) { c.Tau = math.Inf(1) }, func(c *Config) { c.Tau = MaxTau }, "[0.0001, 10000]"},
	} {
		cfg := DefaultConfig(envs.TaskMWM, 20)
		cfg.Steps = 100
		tc.over(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.name+" ") || !strings.Contains(err.Error(), tc.wantInText) {
			t.Errorf("%s above its bound: %v", tc.name, err)
		}
		cfg = DefaultConfig(envs.TaskMWM, 20)
		cfg.Steps = 100
		tc.at(&cfg)
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s at its bound refused: %v", tc.name, err)
		}
	}
}

// TestEpochsBeyondStepsSaysWhy: --epochs 1e300 used to be refused as "must be > 0".
func TestEpochsBeyondStepsSaysWhy(t *testing.T) {
	_, err := parseTrainFlags("--epochs", "1e300")
	if err == nil || !strings.Contains(err.Error(), "more than the most a run may have (1000000000)") {
		t.Errorf("--epochs 1e300: %v", err)
	}
	if _, err := EpochsToSteps(2, 3906); err != nil {
		t.Errorf("2 epochs: %v", err)
	}
}

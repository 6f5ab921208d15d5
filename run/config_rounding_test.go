package run

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestConfigRounding checks --rounding: log is recorded in config.json, m (or empty) overrides a
// recipe's log with the paper's rounding, anything else is refused in one line, a run without it records nothing new, and a configuration without it (every
// earlier run's) reads as "" even into one that held log, so that old runs round as they did.
func TestConfigRounding(t *testing.T) {
	c, err := parseTrainFlags("--task", "mwm", "--n", "10", "--rounding", RoundingLog)
	if data, _ := json.Marshal(c); err != nil || !strings.Contains(string(data), `"rounding":"log"`) {
		t.Errorf("--rounding log: config %s, %v", data, err)
	}
	if _, err := parseTrainFlags("--task", "sort", "--n", "10", "--rounding", "exp"); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("--rounding exp: error %v, want a one-line refusal", err)
	}
	for _, m := range []string{"m", ""} {
		if c, err := parseTrainFlags("--recipe", "best", "--task", "sort", "--n", "10", "--rounding", m); err != nil || c.Rounding != "" {
			t.Errorf("best on sort with --rounding %q: rounding %q, %v; want the paper's (empty)", m, c.Rounding, err)
		}
	}
	plain, err := parseTrainFlags("--task", "sort", "--n", "10")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(plain)
	if strings.Contains(string(data), `"rounding"`) {
		t.Errorf("a run without --rounding records %s: earlier runs' configurations would change", data)
	}
	held := plain
	held.Rounding = RoundingLog
	if err := json.Unmarshal(data, &held); err != nil || held.Rounding != "" {
		t.Errorf("an old configuration read into one with log: rounding %q, %v; want empty", held.Rounding, err)
	}
}

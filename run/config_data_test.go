package run

import (
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestConfigData checks that --data reaches the configuration and config.json, that a task
// with one kind of data refuses it in one line, and that a run without it records nothing new.
func TestConfigData(t *testing.T) {
	parse := func(args ...string) (Config, error) {
		cfg := DefaultConfig("", 0)
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		finish := RegisterFlags(fs, &cfg)
		if err := fs.Parse(args); err != nil {
			return cfg, err
		}
		return cfg, finish()
	}
	cfg, err := parse("--task", "gm", "--n", "10", "--data", "regular:d=3,noise=0.1")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(cfg)
	if cfg.Data != "regular:d=3,noise=0.1" || !strings.Contains(string(data), `"data":"regular:d=3,noise=0.1"`) {
		t.Errorf("config %s: want data regular:d=3,noise=0.1", data)
	}
	if _, err := parse("--task", "mwm", "--n", "10", "--data", "er"); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("mwm --data er: error %v, want a one-line refusal", err)
	}
	if _, err := parse("--task", "gm", "--n", "9", "--data", "regular:d=3"); err == nil {
		t.Error("gm n = 9 regular:d=3 (n*d odd) accepted")
	}
	plain, err := parse("--task", "gm", "--n", "10")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(plain); strings.Contains(string(data), `"data"`) {
		t.Errorf("a run without --data records %s: configurations, and so run identities, of earlier runs would change", data)
	}
	if _, err := envs.NewData(plain.Task, plain.N, plain.Data); err != nil {
		t.Error(err)
	}
}

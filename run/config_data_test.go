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
	cfg, err := parseTrainFlags("--task", "gm", "--n", "10", "--data", "regular:d=3,noise=0.1")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(cfg)
	if cfg.Data != "regular:d=3,noise=0.1" || !strings.Contains(string(data), `"data":"regular:d=3,noise=0.1"`) {
		t.Errorf("config %s: want data regular:d=3,noise=0.1", data)
	}
	if _, err := parseTrainFlags("--task", "mwm", "--n", "10", "--data", "er"); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("mwm --data er: error %v, want a one-line refusal", err)
	}
	if _, err := parseTrainFlags("--task", "gm", "--n", "9", "--data", "regular:d=3"); err == nil {
		t.Error("gm n = 9 regular:d=3 (n*d odd) accepted")
	}
	plain, err := parseTrainFlags("--task", "gm", "--n", "10")
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

// TestConfigSortData checks that a new sort run names its default data, range:k=10, in
// config.json (by flags, by DefaultConfig and after switching --task), and that a
// configuration without a data field, as every run of the previous version wrote, reads as ""
// (the permutations it trained on) even into a configuration that held the new default.
func TestConfigSortData(t *testing.T) {
	parse := func(cfg Config, args ...string) Config {
		t.Helper()
		fs := flag.NewFlagSet("train", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		finish := RegisterFlags(fs, &cfg)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := finish(); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for name, cfg := range map[string]Config{
		"flags":      parse(DefaultConfig("", 0), "--task", "sort", "--n", "10"),
		"from mwm":   parse(DefaultConfig(envs.TaskMWM, 10), "--task", "sort", "--n", "10"),
		"recipe":     parse(DefaultConfig("", 0), "--task", "sort", "--n", "10", "--recipe", "best"),
		"DefaultCfg": DefaultConfig(envs.TaskSort, 10),
	} {
		data, _ := json.Marshal(cfg)
		if cfg.Data != "range:k=10" || !strings.Contains(string(data), `"data":"range:k=10"`) {
			t.Errorf("%s: config %s, want data range:k=10", name, data)
		}
	}
	if cfg := parse(DefaultConfig(envs.TaskSort, 10), "--task", "mwm"); cfg.Data != "" {
		t.Errorf("sort switched to mwm keeps data %q", cfg.Data)
	}
	if cfg := parse(DefaultConfig("", 0), "--task", "sort", "--n", "10", "--data", "perm"); cfg.Data != "perm" {
		t.Errorf("--data perm gives data %q", cfg.Data)
	}
	var prev Config
	if err := ReadJSON("../testdata/prev-run/sort5/config.json", &prev); err != nil {
		t.Fatal(err)
	}
	old := DefaultConfig(envs.TaskSort, 5)
	raw, _ := json.Marshal(prev)
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	if prev.Data != "" || old.Data != "" {
		t.Fatalf("the previous version's sort run reads data %q (into a fresh Config) and %q (into a default one), want \"\"", prev.Data, old.Data)
	}
	env, err := envs.NewData(prev.Task, prev.N, prev.Data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		vals := env.Generate(prev.Seed, i).Values
		for _, v := range vals {
			if v < 0 || v >= float64(prev.N) {
				t.Fatalf("the previous run's instance %d is %v, not a permutation of 0..%d", i, vals, prev.N-1)
			}
		}
	}
}

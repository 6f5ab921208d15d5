package run

import (
	"encoding/json"
	"reflect"
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
	plain, err := parseTrainFlags("--task", "mwm", "--n", "10")
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(plain); strings.Contains(string(data), `"data"`) {
		t.Errorf("an mwm run records %s: configurations, and so run identities, of earlier runs would change", data)
	}
}

// TestConfigGMData checks that a new gm run without --data names Nowak et al.'s noise model,
// gm's default, and that a gm configuration without a data field, as runs made before that
// default wrote, reads as "" and so resumes on the node-pair flips it trained on.
func TestConfigGMData(t *testing.T) {
	cfg, err := parseTrainFlags("--task", "gm", "--n", "10")
	if err != nil {
		t.Fatal(err)
	}
	if want := "er:p=0.2,noise=0.05,noise-model=nowak"; cfg.Data != want || DefaultConfig(envs.TaskGM, 10).Data != want {
		t.Errorf("a new gm run has data %q (DefaultConfig %q), want %q", cfg.Data, DefaultConfig(envs.TaskGM, 10).Data, want)
	}
	old := DefaultConfig(envs.TaskGM, 10)
	if err := json.Unmarshal([]byte(`{"task":"gm","n":10,"seed":1,"model":"spg-gm"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Data != "" {
		t.Fatalf("an earlier gm run's configuration reads data %q, want \"\"", old.Data)
	}
	earlier, err := envs.NewData(old.Task, old.N, old.Data)
	if err != nil {
		t.Fatal(err)
	}
	flip, err := envs.NewData(old.Task, old.N, "er:p=0.2,noise=0.05,noise-model=flip")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if !reflect.DeepEqual(earlier.Generate(old.Seed, i), flip.Generate(old.Seed, i)) {
			t.Fatalf("instance %d of an earlier gm run is not the flip model's", i)
		}
	}
}

// TestConfigSortData checks that a new sort run names its default data, range:k=10, in
// config.json (by flags, by DefaultConfig and after switching --task), and that a
// configuration without a data field, as every run of the previous version wrote, reads as ""
// (the permutations it trained on) even into a configuration that held the new default.
func TestConfigSortData(t *testing.T) {
	parse := func(cfg Config, args ...string) Config {
		t.Helper()
		c, err := chooseArgs(cfg, args...)
		if err != nil {
			t.Fatal(err)
		}
		return c
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

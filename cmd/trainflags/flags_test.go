package trainflags

import (
	"flag"
	"io"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

func parseTrainFlags(args ...string) (run.Config, error) {
	cfg := run.DefaultConfig(envs.TaskMWM, 10)
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	finish := RegisterFlags(fs, &cfg)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	return cfg, finish()
}

func TestRegisterFlags(t *testing.T) {
	cfg, err := parseTrainFlags("--task", "tsp", "--n", "20", "--tau", "0.5", "--sinkhorn-iters", "5",
		"--eps-start", "0.5", "--eps-end", "0.1", "--eps-decay", "0.2", "--k", "3", "--actor-lr", "1e-4",
		"--critic-lr", "1e-3", "--lr-decay", "0.9", "--lr-decay-every", "100", "--batch", "32", "--buffer", "5000",
		"--buffer-mem", "64MiB", "--train-size", "3200", "--val-size", "50", "--test-size", "60",
		"--eval-every", "7", "--log-every", "3", "--no-critic-penalty", "--no-exploration", "--seed", "9", "--epochs", "2.5")
	if err != nil {
		t.Fatal(err)
	}
	want := run.DefaultConfig(envs.TaskTSP, 20)
	want.Tau, want.SinkhornIters, want.EpsStart, want.EpsEnd, want.EpsDecay, want.K = 0.5, 5, 0.5, 0.1, 0.2, 3
	want.ActorLR, want.CriticLR, want.LRDecay, want.LRDecayEvery = 1e-4, 1e-3, 0.9, 100
	want.Batch, want.Buffer, want.BufferMem = 32, 5000, 64<<20
	want.TrainSize, want.ValSize, want.TestSize, want.EvalEvery, want.LogEvery = 3200, 50, 60, 7, 3
	want.CriticPenalty, want.Exploration, want.Seed = false, false, 9
	want.Steps = 250 // 2.5 epochs of 3200/32
	if cfg != want {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}

	if cfg, err := parseTrainFlags("--task", "sort", "--n", "5"); err != nil || cfg.Steps != 20*3906 || !cfg.CriticPenalty || !cfg.Exploration {
		t.Errorf("defaults: steps %d, %v", cfg.Steps, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tau", "0"}, "tau"}, {[]string{"--tau", "-1"}, "tau"}, {[]string{"--sinkhorn-iters", "0"}, "sinkhorn-iters"},
		{[]string{"--n", "1"}, "n 1"}, {[]string{"--batch", "0"}, "batch"}, {[]string{"--actor-lr", "0"}, "actor-lr"},
		{[]string{"--critic-lr", "-1"}, "critic-lr"}, {[]string{"--eps-start", "1.5"}, "eps-start"},
		{[]string{"--eps-end", "-0.5"}, "eps-end"}, {[]string{"--task", "knapsack"}, "task"},
		{[]string{"--steps", "5", "--epochs", "1"}, "exclusive"}, {[]string{"--epochs", "0"}, "epochs"},
		{[]string{"--steps", "-1"}, "steps"}, {[]string{"--buffer-mem", "lots"}, "size in bytes"},
		{[]string{"--k", "11"}, "k 11"},
	} {
		if _, err := parseTrainFlags(tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error naming %q", tc.args, err, tc.want)
		}
	}
}

func TestByteSize(t *testing.T) {
	for s, want := range map[string]int64{"123": 123, "4G": 4 << 30, "4GiB": 4 << 30, "512m": 512 << 20, "2KB": 2048, "7B": 7} {
		var b byteSize
		if err := b.Set(s); err != nil || int64(b) != want {
			t.Errorf("%q: %d, %v; want %d", s, b, err, want)
		}
	}
	for _, s := range []string{"", "G", "-1", "1.5G", "99999999999G", "4T"} {
		var b byteSize
		if err := b.Set(s); err == nil {
			t.Errorf("%q accepted as %d", s, b)
		}
	}
}

func TestModelFlag(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		model string
		bad   string
	}{
		{[]string{"--task", "sort", "--n", "5"}, "spg-sequential", ""},
		{[]string{"--n", "5"}, "spg-matching", ""},
		{[]string{"--task", "tsp", "--n", "5", "--model", "spg-sequential"}, "spg-sequential", ""},
		{[]string{"--task", "tsp", "--n", "5", "--model", "spg-matching"}, "", "does not learn tsp"},
		{[]string{"--task", "tsp", "--n", "5", "--model", "pn-ac"}, "pn-ac", ""},
		{[]string{"--task", "mwm", "--n", "5", "--model", "pn-ac"}, "", "model pn-ac does not learn mwm (it learns tsp, sort)"},
		{[]string{"--task", "sort", "--n", "5", "--model", "ac-matching"}, "", "model ac-matching does not learn sort"},
		{[]string{"--task", "tsp", "--n", "5", "--model", "nope"}, "", `unknown model "nope"`},
		{[]string{"--task", "nope", "--n", "5"}, "", `invalid value "nope" for flag -task: not a task (want mwm, tsp, sort or gm)`},
	} {
		cfg, err := parseTrainFlags(tc.args...)
		switch {
		case tc.bad == "" && (err != nil || cfg.Model != tc.model):
			t.Errorf("%v: model %q, %v", tc.args, cfg.Model, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%v: error %v, want one with %q", tc.args, err, tc.bad)
		}
	}
}

// A model's defaults apply under the flags given explicitly.
func TestModelDefaultsUnderFlags(t *testing.T) {
	saved := run.Models
	defer func() { run.Models = saved }()
	run.Models = append([]run.Model{{Name: "wide", Title: "Wide", Reads: (*envs.Facts).Values,
		Defaults: func(c *run.Config) { c.Hidden, c.Tau = 256, 0.5 }}}, saved...)
	cfg, err := parseTrainFlags("--task", "sort", "--n", "5", "--model", "wide", "--tau", "0.2")
	if err != nil || cfg.Hidden != 256 || cfg.Tau != 0.2 || cfg.Model != "wide" {
		t.Errorf("hidden %d, tau %g, model %q, %v", cfg.Hidden, cfg.Tau, cfg.Model, err)
	}
}

// TestEveryFlagIsASetting: every training flag but the choices that are no field (model,
// recipe, epochs, the switches) sets the field of run.Config whose JSON name is its own, which
// run.SetGiven copies and run.ReadSetting reads back from the flag's words: a flag named
// otherwise would be dropped from an experiment's overrides and a recipe would override it.
func TestEveryFlagIsASetting(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskTSP, 20)
	cfg.BufferMem, cfg.Rounding, cfg.ActorAt, cfg.Init = 3<<20, run.RoundingLog, run.ActorAtHard, "runs/x"
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	RegisterFlags(fs, &cfg)
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Name {
		case "model", "recipe", "epochs", "no-critic-penalty", "no-exploration":
			return
		}
		var read run.Config
		if err := run.ReadSetting(&read, f.Name, f.Value.String()); err != nil {
			t.Errorf("--%s: %v", f.Name, err)
			return
		}
		back := cfg
		run.SetGiven(&back, read, map[string]bool{f.Name: true})
		if back != cfg {
			t.Errorf("--%s %s reads back as another value:\n%+v\nwant\n%+v", f.Name, f.Value, back, cfg)
		}
	})
}

package experiments

import (
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
)

func TestExpandRefuses(t *testing.T) {
	ok := Options{Preset: "tau", Seeds: 2, Scale: 0.01}
	for _, c := range []struct {
		name string
		edit func(o *Options)
		want string
	}{
		{"unknown preset", func(o *Options) { o.Preset = "fig9" }, `unknown preset "fig9"`},
		{"scale 0", func(o *Options) { o.Scale = 0 }, "--scale 0: must be in (0, 1]"},
		{"scale above 1", func(o *Options) { o.Scale = 1.5 }, "--scale 1.5: must be in (0, 1]"},
		{"seeds", func(o *Options) { o.Seeds = 0 }, "--seeds 0"},
		{"too many seeds", func(o *Options) { o.Seeds = 1001 }, "--seeds 1001: must be in [1, 1000]"},
		{"unknown model", func(o *Options) { o.Models = []string{"gpt"} }, "--model gpt: not in preset tau"},
		{"model on another task", func(o *Options) { o.Preset, o.Models = "sort", []string{"spg-matching"} }, "spg-matching learns mwm"},
		{"varied flag", func(o *Options) { o.Overrides = mustOverrides(map[string]string{"tau": "0.2"}) }, "--tau: preset tau varies it itself"},
		{"experiment flag", func(o *Options) { o.Overrides = mustOverrides(map[string]string{"steps": "9"}) }, "--steps: the preset sets it"},
		{"bad training flag", func(o *Options) { o.Overrides = mustOverrides(map[string]string{"actor-lr": "-1"}) }, "actor-lr"},
	} {
		o := ok
		c.edit(&o)
		_, _, err := Expand(o)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line containing %q", c.name, err, c.want)
		}
	}
	if _, _, err := Expand(ok); err != nil {
		t.Fatal(err)
	}
}

// A preset naming a model this build lacks fails with one line naming it and the models it could
// run.
func TestUnregisteredModel(t *testing.T) {
	p, _ := PresetNamed("sort")
	a := Arm{Label: "x", Model: "pn-ac-later", Task: envs.TaskSort, N: 20, Epochs: 20}
	p.Arms = append(p.Arms, a)
	_, err := armConfig(p, a, 1, Options{Seeds: 1, Scale: 1})
	want := "preset sort needs model pn-ac-later, which this build does not have (--model pn-ac,spg-sequential runs the others)"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %q...", err, want)
	}
}

// --model picks some of a preset's models: only their runs are planned.
func TestExpandModels(t *testing.T) {
	p, runs, err := Expand(Options{Preset: "sort", Seeds: 3, Scale: 0.01, Models: []string{"spg-sequential"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs, want 2 sizes x 3 seeds", len(runs))
	}
	for _, r := range runs {
		c := r.Config
		a := p.Arms[r.Arm]
		if c.Model != "spg-sequential" || c.Task != envs.TaskSort || c.N != a.N {
			t.Errorf("run %s: %s %s-%d", r.ID, c.Model, c.Task, c.N)
		}
		// 1% of the 500,000 training instances: an epoch of 39 steps, the paper's 20 epochs,
		// one validation per epoch, and the learning-rate decay interval scaled alike.
		if c.TrainSize != 5000 || c.StepsPerEpoch() != 39 || c.Steps != 780 || c.EvalEvery != 39 || c.LRDecayEvery != 50 {
			t.Errorf("run %s: train %d, epoch %d, steps %d, eval every %d, lr decay every %d", r.ID, c.TrainSize, c.StepsPerEpoch(), c.Steps, c.EvalEvery, c.LRDecayEvery)
		}
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// The penalty-on, tau = 0.05 and epsilon-decay-0.05 arms are all the paper's default MWM-10
// run: the presets share those runs.
func TestPresetsShareRuns(t *testing.T) {
	ids := func(preset, arm string) []string {
		p, runs, err := Expand(Options{Preset: preset, Seeds: 2, Scale: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range runs {
			if p.Arms[r.Arm].Label == arm {
				out = append(out, r.ID)
			}
		}
		return out
	}
	pen, tau, exp := ids("penalty", "penalty on"), ids("tau", "tau=0.05"), ids("exploration", "eps 1, decay 0.95")
	if len(pen) != 2 || !slices.Equal(pen, tau) || !slices.Equal(pen, exp) {
		t.Errorf("shared runs differ: %v, %v, %v", pen, tau, exp)
	}
	if off := ids("penalty", "penalty off"); slices.Equal(off, pen) {
		t.Error("penalty off shares the penalty-on runs")
	}
}

func TestShards(t *testing.T) {
	for _, bad := range []string{"", "1", "2/2", "-1/2", "0/0", "a/b", "0/2/3", "01/2", " 0/2"} {
		if _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "--shard") {
			t.Errorf("ParseShard(%q): %v, want an error", bad, err)
		}
	}
	_, runs, err := Expand(Options{Preset: "tau", Seeds: 3, Scale: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i := range 4 {
		s, err := ParseShard(strings.Join([]string{itoa(i), "4"}, "/"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range s.Of(runs) {
			seen[r.ID]++
		}
	}
	if len(seen) != len(runs) {
		t.Errorf("the shards cover %d of %d runs", len(seen), len(runs))
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("run %s in %d shards", id, k)
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestCost(t *testing.T) {
	p, _ := PresetNamed("penalty")
	// Two arms, 20 epochs of 3,906 steps, 10 seeds.
	if got := p.CostSteps(10); got != 2*20*3906*10 {
		t.Errorf("penalty costs %d steps, want %d", got, 2*20*3906*10)
	}
	m, _ := PresetNamed("mwm")
	// spg-random trains one step per seed.
	want := 3*3*100*3906*10 + 3*10
	if got := m.CostSteps(10); got != want {
		t.Errorf("mwm costs %d steps, want %d", got, want)
	}
}

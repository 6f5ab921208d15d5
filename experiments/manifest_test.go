package experiments

import (
	"strings"
	"testing"
)

// TestPlanOfAnEarlierSortExperiment checks that an experiment directory made before sort had a
// default data spec still expands to its own runs, on the permutations they trained on: plan
// 917c98325101801c and the first run's ID are what that version made of these options.
func TestPlanOfAnEarlierSortExperiment(t *testing.T) {
	m := Manifest{Format: manifestFormat, Version: PresetVersion, Preset: "sort", Seeds: 2, Scale: 0.001, Plan: "917c98325101801c"}
	all, err := m.plan(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 8 || all[0].ID != "pn-ac-sort20-seed1-dd9fcb182a92" {
		t.Fatalf("%d runs, first %s; want 8, first pn-ac-sort20-seed1-dd9fcb182a92", len(all), all[0].ID)
	}
	for _, r := range all {
		if r.Config.Data != "" {
			t.Errorf("run %s plans data %q, want the earlier runs' \"\"", r.ID, r.Config.Data)
		}
	}
	_, fresh, err := Expand(Options{Preset: "sort", Seeds: 2, Scale: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if fresh[0].Config.Data != "range:k=10" || planHash("sort", fresh) == m.Plan {
		t.Errorf("a new sort experiment plans data %q under the earlier plan's hash", fresh[0].Config.Data)
	}
}

// TestPlansOfAnotherVersionSaySo checks that a directory whose options are this command's but
// whose plan is not (its preset planned other runs when it was made, as sizes did before it
// trained best's run lengths) is refused for that, not for options that are equal.
func TestPlansOfAnotherVersionSaySo(t *testing.T) {
	old := Manifest{Preset: "sizes", Version: PresetVersion, Seeds: 1, Scale: 0.001, Models: []string{"spg-factored"},
		Flags: map[string]string{"batch": "4"}, Plan: "efcf3af00a0fb8a6"}
	now := old
	now.Plan = "0123456789abcdef"
	err := old.compatible(now)
	if err == nil || !strings.Contains(err.Error(), "another spg-tui version, whose preset planned other runs for the same options") {
		t.Errorf("same options, another plan: %v", err)
	}
	now.Seeds = 2
	if err := old.compatible(now); err == nil || !strings.Contains(err.Error(), "seeds 1 vs 2") {
		t.Errorf("other seeds: %v", err)
	}
}

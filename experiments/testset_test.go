package experiments

import (
	"slices"
	"testing"

	"spg-tui/envs"
)

// TestTestSetOfTheRunsData checks that an experiment's test set is drawn on its runs' data
// (sort's default range, not the permutations) and keeps the earlier name without a spec.
func TestTestSetOfTheRunsData(t *testing.T) {
	old := TestSet{Task: envs.TaskSort, N: 10, Seed: TestSeed, Size: 5}
	wide := old
	wide.Data = envs.DefaultData(envs.TaskSort)
	if got := old.Name(); got != "sort10-seed0-5" {
		t.Errorf("earlier set named %s, want sort10-seed0-5", got)
	}
	if got := wide.Name(); got != "sort10-range-k-10-seed0-5" {
		t.Errorf("set on range:k=10 named %s, want sort10-range-k-10-seed0-5", got)
	}
	_, perms, err := old.instances()
	if err != nil {
		t.Fatal(err)
	}
	_, ranged, err := wide.instances()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Max(perms[0].Values) != 9 || slices.Max(ranged[0].Values) < 10 {
		t.Errorf("sets drew %v and %v: want a permutation of 0..9, then values beyond 9", perms[0].Values, ranged[0].Values)
	}
}

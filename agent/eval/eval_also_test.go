package eval

import (
	"math"
	"testing"

	"spg-tui/envs"
)

// TestAlsoMeasuresRecovery checks that graph matching's evaluations report the recovery rate
// of the planted correspondence: 1 for the planted permutations themselves, the fraction of
// planted partners otherwise, and nothing for instances without a planted correspondence.
func TestAlsoMeasuresRecovery(t *testing.T) {
	const n = 6
	env, err := envs.New(envs.TaskGM, n)
	if err != nil {
		t.Fatal(err)
	}
	measures := envs.MustFacts(envs.TaskGM).Also
	insts := []envs.Instance{env.Generate(4, 0), env.Generate(4, 1)}
	perms := append(append([]int(nil), insts[0].Planted...), insts[1].Planted...)
	if got := alsoMeasures(measures, insts, perms, n); got["recovery"] != 1 {
		t.Errorf("planted permutations: recovery %v, want 1", got)
	}
	// Swap two partners of the first instance: 4 of its 6 nodes stay, the second keeps all 6.
	perms[0], perms[1] = perms[1], perms[0]
	if got, want := alsoMeasures(measures, insts, perms, n)["recovery"], (4.0/6+1)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("one swap: recovery %v, want %v", got, want)
	}
	insts[1].Planted = nil
	if got, want := alsoMeasures(measures, insts, perms, n)["recovery"], 4.0/6; math.Abs(got-want) > 1e-12 {
		t.Errorf("second instance without a planted correspondence: recovery %v, want %v (the first alone)", got, want)
	}
	insts[0].Planted = nil
	if got := alsoMeasures(measures, insts, perms, n); got != nil {
		t.Errorf("no planted correspondence anywhere: %v, want no measure", got)
	}
	if got := alsoMeasures(envs.MustFacts(envs.TaskMWM).Also, insts, perms, n); got != nil {
		t.Errorf("mwm has no other measure, got %v", got)
	}
}

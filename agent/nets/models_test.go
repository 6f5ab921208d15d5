package nets

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// Every model of the catalogue of an SPG kind has an architecture here and every critic-free
// one a policy network, and nothing else is registered; an unknown model is refused.
func TestRegistriesMatchCatalogue(t *testing.T) {
	kinds := map[run.ModelKind]int{}
	for _, m := range run.Models {
		kinds[m.Kind]++
	}
	if len(archs) != kinds[run.KindSPG] || len(policyNets) != kinds[run.KindCriticFree] {
		t.Errorf("%d architectures and %d policy networks registered for %d SPG and %d critic-free models",
			len(archs), len(policyNets), kinds[run.KindSPG], kinds[run.KindCriticFree])
	}
	if _, err := newArch("nope", envs.MustFacts(envs.TaskMWM), 5, 4); err == nil {
		t.Error("an unknown model was built")
	}
}

package experiments

import (
	"strings"
	"testing"
)

// TestPresetTextNamesItsModels: a preset that names its models in its description names those
// its arms train (sizes said spg-factored on TSP while its arm trained spg-successor).
func TestPresetTextNamesItsModels(t *testing.T) {
	for _, p := range Presets() {
		if p.Name != "sizes" {
			continue
		}
		for _, a := range p.Arms {
			if a.Model != "" && !strings.Contains(p.Reproduces, a.Model) {
				t.Errorf("%s: arm %s trains %s, which its description does not name: %q", p.Name, a.Label, a.Model, p.Reproduces)
			}
		}
	}
}

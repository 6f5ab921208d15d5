package experiments

import (
	"strings"
	"testing"
)

// mustOverrides reads text as a manifest's recorded settings, panicking on a bad one (a test's
// own literal).
func mustOverrides(text map[string]string) Overrides {
	o, err := ReadOverrides(text)
	if err != nil {
		panic(err)
	}
	return o
}

// TestOverridesWinOverTheArm: a setting given every run wins over the arm's model defaults and
// change, as train's flag would; a switch turns off what every arm has on; words a manifest
// cannot hold are refused in one line.
func TestOverridesWinOverTheArm(t *testing.T) {
	_, runs, err := Expand(Options{Preset: "penalty", Seeds: 1, Scale: 1,
		Overrides: mustOverrides(map[string]string{"hidden": "24", "batch": "4", "no-exploration": "true"})})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if c := r.Config; c.Hidden != 24 || c.Batch != 4 || c.Exploration {
			t.Errorf("%s: hidden %d, batch %d, exploration %v", r.ID, c.Hidden, c.Batch, c.Exploration)
		}
	}
	for _, bad := range []map[string]string{{"hidden": "wide"}, {"no-exploration": "maybe"}, {"nope": "1"}} {
		if _, err := ReadOverrides(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want a one-line refusal", bad, err)
		}
	}
}

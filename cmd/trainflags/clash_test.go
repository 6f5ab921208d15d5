package trainflags

import (
	"strings"
	"testing"
)

// TestRecipeSettingsAnotherModelCannotTake: --recipe best with another --model than the
// recipe's used to be refused for a flag the user never gave ("critic must be paper, ..."); the
// refusal names the recipe's settings the model cannot take and the flags that replace them,
// and with those flags the run is accepted.
func TestRecipeSettingsAnotherModelCannotTake(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		want  []string // fragments of the one-line error
		fixed []string // the flags that make it valid
	}{
		{[]string{"--task", "sort", "--n", "10", "--recipe", "best", "--model", "spg-sequential"},
			[]string{"recipe best", "critic bilinear", "--critic paper"}, []string{"--critic", "paper"}},
		{[]string{"--task", "sort", "--n", "10", "--recipe", "best", "--model", "pn-ac"},
			[]string{"critic bilinear", "rounding log", "--critic paper --rounding m"}, []string{"--critic", "paper", "--rounding", "m"}},
		{[]string{"--task", "tsp", "--n", "10", "--recipe", "best", "--model", "pn-ac"},
			[]string{"critic bilinear", "actor-at hard", "rounding log", "--critic paper --actor-at soft --rounding m"}, []string{"--critic", "paper", "--actor-at", "soft", "--rounding", "m"}},
	} {
		_, err := parseTrainFlags(tc.args...)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error %v, want one line", tc.args, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", tc.args, err, w)
			}
		}
		if _, err := parseTrainFlags(append(tc.args, tc.fixed...)...); err != nil {
			t.Errorf("%v %v: %v", tc.args, tc.fixed, err)
		}
	}
	// A model on a task it does not learn, the recipe's own model, and explicit flags a model
	// cannot take keep their messages.
	if _, err := parseTrainFlags("--task", "tsp", "--n", "5", "--recipe", "best", "--model", "pn-ac-matching"); err == nil || !strings.Contains(err.Error(), "does not learn tsp") {
		t.Errorf("pn-ac-matching on tsp: %v", err)
	}
	if _, err := parseTrainFlags("--task", "sort", "--n", "10", "--recipe", "best", "--model", "spg-factored"); err != nil {
		t.Error(err)
	}
	if _, err := parseTrainFlags("--task", "sort", "--n", "5", "--critic", "exact"); err == nil || !strings.Contains(err.Error(), "critic must be paper") {
		t.Errorf("--critic exact on sort: %v", err)
	}
}

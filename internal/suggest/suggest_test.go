package suggest

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	flags := []string{"steps", "epochs", "eps-start", "eps-end", "eps-decay", "seed", "n", "k", "hidden", "actor-lr", "critic-lr", "task"}
	commands := []string{"gen", "solve", "train", "eval", "bench", "import", "tui"}
	for _, tc := range []struct {
		word  string
		names []string
		want  []string
	}{
		{"step", flags, []string{"steps"}},
		{"stpes", flags, []string{"steps"}},  // a swap is one edit
		{"hiden", flags, []string{"hidden"}}, // a deletion
		{"actor_lr", flags, []string{"actor-lr"}},
		{"actorlr", flags, []string{"actor-lr"}}, // an insertion
		{"eps", flags, []string{"eps-start", "eps-end", "eps-decay"}},
		{"x", flags, nil},     // one letter is one edit from every other one
		{"m", flags, nil},     // ... so it suggests neither n nor k
		{"steps", flags, nil}, // a name suggests nothing but itself, which is no suggestion
		{"bogus", flags, nil}, // nothing near
		{"e", flags, nil},     // too short a prefix
		{"trian", commands, []string{"train"}},
		{"evla", commands, []string{"eval"}},
		{"tiu", commands, []string{"tui"}},
		{"frobnicate", commands, nil},
		{"tps", []string{"mwm", "tsp", "sort", "gm"}, []string{"tsp"}},
	} {
		if got := Nearest(tc.word, tc.names); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestPhrase(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, ""}, {[]string{"a"}, "--a"}, {[]string{"a", "b"}, "--a or --b"}, {[]string{"a", "b", "c"}, "--a, --b or --c"},
	} {
		if got := Phrase("--", tc.names); got != tc.want {
			t.Errorf("Phrase(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}

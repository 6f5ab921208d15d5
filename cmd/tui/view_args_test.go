package tuicmd

import (
	"strings"
	"testing"
)

// TestSplitViewArgs: the directories after --view DIR, up to the next flag, are the runs to
// compare; the flag package would stop at the first of them.
func TestSplitViewArgs(t *testing.T) {
	rest, more := splitViewArgs([]string{"--view", "a", "b", "c", "--n", "5"})
	if strings.Join(rest, " ") != "--view a --n 5" || strings.Join(more, " ") != "b c" {
		t.Errorf("rest %q, more %q", rest, more)
	}
	rest, more = splitViewArgs([]string{"--task", "tsp", "--view=a", "b"})
	if strings.Join(rest, " ") != "--task tsp --view=a" || strings.Join(more, " ") != "b" {
		t.Errorf("rest %q, more %q", rest, more)
	}
}

package main

import (
	"flag"
	"os"
	"strings"
	"testing"

	"spg-tui/run"
)

// TestNewUserDocs: what a new user following README.md alone needs is there: how spg-tui gets on
// the PATH, every row of the console's panel in its key table, and the directories its commands
// write (runs/, exp/, exports/) kept out of git.
func TestNewUserDocs(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ignore, err := os.ReadFile(".gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "go install .") {
		t.Error("README.md does not say how to install spg-tui")
	}
	var keys string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| up, down | select a hyperparameter") {
			keys = l
		}
	}
	for _, p := range run.Params {
		if p.Label != "" && !strings.Contains(keys, strings.TrimSuffix(p.Label, " (Sinkhorn)")) {
			t.Errorf("README.md's key table leaves out the panel's %q: %q", p.Label, keys)
		}
	}
	for _, dir := range []string{"/runs/", "/exp/", "/exports/"} {
		if !strings.Contains(string(ignore), dir+"\n") {
			t.Errorf(".gitignore lacks %s", dir)
		}
	}
}

// TestCacheFlagSaysHowToClear: the shared reference cache grows without bound; --cache's help
// says where it is and how to clear it.
func TestCacheFlagSaysHowToClear(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	cacheFlag(fs)
	if u := fs.Lookup("cache").Usage; !strings.Contains(u, "~/.cache/spg-tui") || !strings.Contains(u, "delete DIR to clear it") {
		t.Errorf("--cache's help: %q", u)
	}
}

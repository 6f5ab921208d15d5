package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"spg-tui/experiments"
)

// maxFlagHelp is the most characters a flag's help may take in --help: more belongs in
// docs/commands.md, to which the short help points.
const maxFlagHelp = 300

// defaultSuffix is what the flag package appends to a flag's help: not the help's own text.
var defaultSuffix = regexp.MustCompile(` \(default .*\)$`)

// TestFlagHelpIsShort: every flag of every command (experiment's list, merge and each preset
// included) has a help of at most maxFlagHelp characters, as --help prints it.
func TestFlagHelpIsShort(t *testing.T) {
	var cmds [][]string
	for _, c := range commands {
		if c.name != "experiment" {
			cmds = append(cmds, []string{c.name})
			continue
		}
		for _, sub := range append([]string{"list", "merge"}, experiments.PresetNames()...) {
			cmds = append(cmds, []string{c.name, sub})
		}
	}
	for _, cmd := range cmds {
		var out, errb bytes.Buffer
		if status := dispatch(append(cmd, "--help"), nil, &out, &errb); status != 0 {
			t.Errorf("%s --help: status %d, %s", strings.Join(cmd, " "), status, errb.String())
			continue
		}
		helps := flagHelps(out.String())
		if len(helps) == 0 && cmd[len(cmd)-1] != "list" {
			t.Errorf("%s --help lists no flags:\n%s", strings.Join(cmd, " "), out.String())
		}
		for name, help := range helps {
			if n := utf8.RuneCountInString(help); n > maxFlagHelp {
				t.Errorf("%s --%s: help of %d characters, more than %d (details go in docs/commands.md): %s",
					strings.Join(cmd, " "), name, n, maxFlagHelp, help)
			}
		}
	}
}

// flagHelps reads flag.PrintDefaults's output in help: each flag's help by name, its lines joined
// by spaces, without the default the flag package appends.
func flagHelps(help string) map[string]string {
	helps := map[string]string{}
	var name string
	for _, line := range strings.Split(help, "\n") {
		switch {
		case strings.HasPrefix(line, "  -"):
			head, text, _ := strings.Cut(line[3:], "\t")
			name, _, _ = strings.Cut(head, " ")
			helps[name] = text
		case strings.HasPrefix(line, "    \t") && name != "":
			helps[name] = strings.TrimSpace(helps[name] + " " + line[5:])
		default:
			name = ""
		}
	}
	for n, h := range helps {
		helps[n] = defaultSuffix.ReplaceAllString(h, "")
	}
	return helps
}

// TestFlagHelpsReadsPrintDefaults: flagHelps reads a short flag's help on its own line, a long
// one's over several, and leaves the flag package's default out.
func TestFlagHelpsReadsPrintDefaults(t *testing.T) {
	got := flagHelps("Usage: x\n\nFlags:\n  -v\tverbose\n  -data SPEC\n    \tthe data:\n    \tsort or gm (default \"er\")\n  -n int\n    \tsize\n")
	want := map[string]string{"v": "verbose", "data": "the data: sort or gm", "n": "size"}
	if len(got) != len(want) {
		t.Fatalf("flagHelps read %v, want %v", got, want)
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("--%s: %q, want %q", n, got[n], w)
		}
	}
}

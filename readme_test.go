package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/root"
	"spg-tui/experiments"
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

// maxFlagHelp is the most characters a flag's help may take in --help: more belongs in
// docs/commands.md, to which the short help points.
const maxFlagHelp = 300

// defaultSuffix is what the flag package appends to a flag's help: not the help's own text.
var defaultSuffix = regexp.MustCompile(` \(default .*\)$`)

// TestFlagHelpIsShort: every flag of every command (experiment's list, merge and each preset
// included) has a help of at most maxFlagHelp characters, as --help prints it.
func TestFlagHelpIsShort(t *testing.T) {
	var cmds [][]string
	for _, name := range root.Names() {
		if name != "experiment" {
			cmds = append(cmds, []string{name})
			continue
		}
		for _, sub := range append([]string{"list", "merge"}, experiments.PresetNames()...) {
			cmds = append(cmds, []string{name, sub})
		}
	}
	for _, cmd := range cmds {
		var out, errb bytes.Buffer
		if status := root.Dispatch(append(cmd, "--help"), cmdutil.Streams{Out: &out, Err: &errb}); status != 0 {
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

// TestDocsDescribeTheProduct: README.md and docs/results.md keep their sizes (300 and 600 lines),
// no page under docs/ tells its history as "this stop" or "last stop" (a date or what the runs
// were says it), and every link between the docs reaches a file and, where it names one, a
// heading of that file.
func TestDocsDescribeTheProduct(t *testing.T) {
	for path, most := range map[string]int{"README.md": 300, "docs/results.md": 600} {
		if n := strings.Count(readDoc(t, path), "\n"); n > most {
			t.Errorf("%s: %d lines, more than %d", path, n, most)
		}
	}
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	notebook, err := filepath.Glob("docs/notebook/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(append(pages, notebook...), "README.md")
	for _, page := range pages {
		text := readDoc(t, page)
		for _, phrase := range []string{"this stop", "last stop", "this session"} {
			if strings.Contains(strings.ToLower(text), phrase) {
				t.Errorf("%s says %q", page, phrase)
			}
		}
		for _, m := range docLink.FindAllStringSubmatch(fencedCode.ReplaceAllString(text, ""), -1) {
			file, anchor, _ := strings.Cut(m[1], "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s: %v", page, m[1], err)
				continue
			}
			if anchor != "" && strings.HasSuffix(target, ".md") && !headingAnchors(readDoc(t, target))[anchor] {
				t.Errorf("%s links to %s: %s has no such heading", page, m[1], target)
			}
		}
	}
}

var (
	// docLink is a Markdown link to a file of the repository (not a URL): its path and anchor.
	docLink = regexp.MustCompile(`\]\(([^)\s:]+)\)`)
	// fencedCode is a fenced code block, whose brackets are not links.
	fencedCode = regexp.MustCompile("(?s)```.*?```")
	// notAnchor is what GitHub drops from a heading to make its anchor.
	notAnchor = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// headingAnchors are the anchors GitHub gives text's headings: lower case, punctuation dropped,
// spaces as hyphens, "-1", "-2" after repeats.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(fencedCode.ReplaceAllString(text, ""), "\n") {
		heading := strings.TrimLeft(line, "#")
		if heading == line || !strings.HasPrefix(heading, " ") {
			continue
		}
		a := strings.ReplaceAll(notAnchor.ReplaceAllString(strings.ToLower(strings.TrimSpace(heading)), ""), " ", "-")
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

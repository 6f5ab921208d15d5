package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/ui/export"
)

// TestCompareHelpListsItsKeys: ? in the compare view lists the view's own keys (h, p, s, /, its
// export), not the main view's samples, parameters, ablations or export, which act on no shown
// run.
func TestCompareHelpListsItsKeys(t *testing.T) {
	m := compareModel(t, compareFixture(t), 120, 36)
	press(m, "?")
	sc := screen(m)
	for _, want := range []string{"hide/show the run", "pin/unpin", "sort the runs", "compare the runs", "filter the runs", "export overlays"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the compare view's help lacks %q:\n%s", want, sc)
		}
	}
	for _, not := range []string{"samples", "select parameter", "ablation", "export curves and figures", "increase"} {
		if strings.Contains(sc, not) {
			t.Errorf("the compare view's help lists the main view's %q:\n%s", not, sc)
		}
	}
}

// TestReadOnlyKeysNeverChangeTheRun: in a read-only view, a opens no ablation launcher, enter on
// a parameter of the run is refused at once, and e exports outside the viewed run's directory.
func TestReadOnlyKeysNeverChangeTheRun(t *testing.T) {
	dir, _, _ := viewFixture(t)
	t.Chdir(t.TempDir())
	m := openView(t, dir, 120, 36)
	if strings.Contains(strip(m.footer()), "ablations") {
		t.Errorf("the read-only footer offers the ablation launcher: %q", strip(m.footer()))
	}
	press(m, "?")
	if strings.Contains(screen(m), "ablation") {
		t.Errorf("the read-only help lists the ablation launcher:\n%s", screen(m))
	}
	press(m, "?", "a")
	if m.view != viewMain || !m.msg.err || !strings.Contains(m.msg.text, "read-only view: a opens the ablation launcher") {
		t.Errorf("a in a read-only view: view %d, message %+v", m.view, m.msg)
	}
	m.msg = status{}
	press(m, "enter")
	if m.params.editing || !m.msg.err || !strings.Contains(m.msg.text, "read-only view: tau changes the run") {
		t.Errorf("enter on tau in a read-only view: editing %v, message %+v", m.params.editing, m.msg)
	}
	before, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(keyMsg("e"))
	if cmd == nil {
		t.Fatalf("e returned no command: %+v", m.msg)
	}
	msg := cmd().(exportedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	after, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("e wrote into the viewed run: %d entries before, %d after", len(before), len(after))
	}
	if want := filepath.Join("exports", filepath.Base(dir)); !strings.HasPrefix(export.Dir(msg.files), want) {
		t.Errorf("exported to %s, want under %s", export.Dir(msg.files), want)
	}
}

// TestCommand: the commands messages suggest name go run . when the program is go run's build,
// a fresh one or (Go 1.24 on) the one it ran from its build cache, which said spg-tui before.
func TestCommand(t *testing.T) {
	id := "e807f77ba5bea4c2a6cc87ae290aacc51f5cf3e00ab0bbaf3886567534fbd384"
	for exe, want := range map[string]string{
		"/tmp/go-build3161/b001/exe/spg-tui":                   "go run .",
		"/root/.cache/go-build/e8/" + id + "-d/spg-tui":        "go run .",
		"/home/u/.cache/go-build/e8/" + id + "-a":              "spg-tui",
		"/home/u/.cache/go-build/e9/" + id + "-d/spg-tui":      "spg-tui",
		"/home/u/.cache/go-build/e8/" + id[:60] + "-d/spg-tui": "spg-tui",
		"/home/u/src/e8/" + strings.ToUpper(id) + "-d/spg-tui": "spg-tui",
		"/home/u/go/bin/spg-tui":                               "spg-tui",
		"/opt/exe/spg-tui":                                     "spg-tui",
	} {
		if got := commandFor(func() (string, error) { return exe, nil }); got != want {
			t.Errorf("%s: %q, want %q", exe, got, want)
		}
	}
}

// TestViewDoesNotRetellHistory: opening a finished run read-only shows no "training done at
// step …" in the footer (the compare view showed it over other runs): its records are history.
func TestViewDoesNotRetellHistory(t *testing.T) {
	dir, _, _ := viewFixture(t)
	m := openView(t, dir, 120, 36)
	m.poll()
	if m.msg.text != "" {
		t.Errorf("footer after opening a finished run: %q", m.msg.text)
	}
}

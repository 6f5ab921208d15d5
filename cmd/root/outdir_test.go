package root_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// TestOutMustBeADirectory: an --out that names a file, a dangling symbolic link or a path
// under a file is bad input for every command that writes a directory: one line naming it,
// exit status 2, and nothing created.
func TestOutMustBeADirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	link := filepath.Join(dir, "linkrun")
	if os.WriteFile(file, []byte("keep"), 0o644) != nil || os.Symlink(filepath.Join(dir, "nowhere"), link) != nil {
		t.Fatal("making the fixtures")
	}
	npz := clitest.Repo("agent", "authors", "testdata", "authors", "actor-mwm15.npz")
	for _, out := range []struct{ path, want string }{
		{file, file + " is a file, not a directory"},
		{filepath.Join(file, "run"), file + " is a file, not a directory"},
		{link, link + " is a symbolic link to " + filepath.Join(dir, "nowhere") + ", which does not exist"},
	} {
		for _, args := range [][]string{
			clitest.TinyTrain(out.path),
			clitest.TinyExperiment("penalty", out.path),
			{"import", "--task", "mwm", "--n", "15", "--in", npz, "--out", out.path},
			{"experiment", "merge", "--out", out.path, dir},
		} {
			status, stdout, msg := clitest.Run(t, nil, args...)
			if status != cmdutil.ExitUsage || stdout != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, out.want) {
				t.Errorf("%v: status %d, stderr %q; want %d and one line containing %q", args[:2], status, msg, cmdutil.ExitUsage, out.want)
			}
		}
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep" {
		t.Errorf("the file given as --out now holds %q (%v)", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("refused commands left %v", entries)
	}
}

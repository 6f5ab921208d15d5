package ui

import (
	"os"
	"path/filepath"
	"strings"
)

// Command is how the user runs this program, for the commands that messages suggest: "go run ."
// when it is go run's temporary build (spg-tui is then not on the PATH), else "spg-tui".
var Command = commandFor(os.Executable)

// commandFor names the program from where its executable is.
func commandFor(executable func() (string, error)) string {
	exe, err := executable()
	if err == nil && isGoRunBuild(exe) {
		return "go run ."
	}
	return "spg-tui"
}

// isGoRunBuild reports whether exe is where go run puts its build: $GOTMPDIR/go-buildN/bM/exe/.
func isGoRunBuild(exe string) bool {
	dir := filepath.Dir(exe)
	return filepath.Base(dir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build")
}

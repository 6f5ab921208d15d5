package envs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envs sits below the run contract and the learners: it imports none of the packages that
// build on it, so a task can be used and tested on its own.
func TestImportsNothingAbove(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	above := []string{"spg-tui/run", "spg-tui/agent", "spg-tui/experiments", "spg-tui/ui"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, a := range above {
				if path == a || strings.HasPrefix(path, a+"/") {
					t.Errorf("%s imports %s", name, path)
				}
			}
		}
	}
}

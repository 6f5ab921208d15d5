package envs

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// envs and its task folders sit below the run contract and the learners: they import none of the
// packages that build on them, so a task can be used and tested on its own. envs' own files, the
// framework, import none of the task folders either: the tasks register themselves with it.
func TestImportsNothingAbove(t *testing.T) {
	above := []string{"spg-tui/run", "spg-tui/agent", "spg-tui/experiments", "spg-tui/ui"}
	err := filepath.WalkDir(".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		framework := filepath.Dir(name) == "."
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, a := range above {
				if path == a || strings.HasPrefix(path, a+"/") {
					t.Errorf("%s imports %s", name, path)
				}
			}
			if framework && strings.HasPrefix(path, "spg-tui/envs/") {
				t.Errorf("%s, envs' own, imports the task folder %s", name, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

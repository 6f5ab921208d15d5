package gpulayers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// linalg is the floor the models stand on: no package under it (this one included, whose layers
// share the pair features with agent/nets) imports the packages that build on it.
func TestLinalgImportsNothingAbove(t *testing.T) {
	above := []string{"spg-tui/agent", "spg-tui/run", "spg-tui/envs", "spg-tui/experiments", "spg-tui/ui"}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, a := range above {
				if p == a || strings.HasPrefix(p, a+"/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

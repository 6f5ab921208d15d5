// Package gentest holds the check that a package's generated files are what its generator
// writes now, for the tests of the packages with generated assembly (linalg/gemm,
// linalg/fastmath).
package gentest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// UpToDate runs generator, a `//go:build ignore` program in the test's package folder (its
// files, separated by spaces), as go generate does but with -dir naming a temporary folder, and
// fails t for each of files that differs from the package's own, saying where and what
// rewrites it.
func UpToDate(t *testing.T, generator string, files ...string) {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts its GOROOT/bin first on the PATH
	if err != nil {
		t.Skipf("no go command to run %s: %v", generator, err)
	}
	dir := t.TempDir()
	args := append(append([]string{"run"}, strings.Fields(generator)...), "-dir", dir)
	if out, err := exec.Command(goTool, args...).CombinedOutput(); err != nil {
		t.Fatalf("go run %s: %v\n%s", generator, err, out)
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatalf("%s did not write %s: %v", generator, f, err)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what %s writes (from line %d on): change %s, not the file, and run go generate",
				f, generator, firstDifferentLine(got, want), generator)
		}
	}
}

// firstDifferentLine is the 1-based number of the first line where a and b differ.
func firstDifferentLine(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return bytes.Count(a[:i], []byte("\n")) + 1
}

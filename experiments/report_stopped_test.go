package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/run"
)

// TestStoppedReportComputesNoReferences checks that the report of an experiment stopped before
// any run was scored reads only the test sets already on disk: before, a stopped sizes or tsp
// experiment spent a minute or more solving Held-Karp and 2-opt + or-opt references after the
// stop, before it exited.
func TestStoppedReportComputesNoReferences(t *testing.T) {
	for _, preset := range []string{"sizes", "tsp"} {
		dir := filepath.Join(t.TempDir(), preset)
		pr, err := Prepare(Options{Preset: preset, Seeds: 1, Scale: 0.001}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := run.WriteJSONAtomic(filepath.Join(dir, ManifestFile), pr.Manifest); err != nil {
			t.Fatal(err)
		}
		if err := writeReport(dir, true); err != nil {
			t.Fatalf("%s: %v", preset, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "testsets")); !os.IsNotExist(err) {
			t.Errorf("%s: the stopped report computed test sets (%v)", preset, err)
		}
		report, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(report), "not computed yet") {
			t.Errorf("%s: report.md does not say its references are not computed yet:\n%s", preset, report)
		}
	}
}

package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/run"
)

// noLeftovers fails if dir holds a merge's temporary directory.
func noLeftovers(t *testing.T, dir string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(dir, mergeTempPrefix+"*")); len(left) > 0 {
		t.Errorf("a merge left %v behind", left)
	}
}

// A merge lacking a shard is refused unless --partial, which marks the report; a merge that
// fails on a damaged shard names the shard's file and leaves --out as it was.
func TestMergeRefusesIncompleteAndDamagedShards(t *testing.T) {
	base := t.TempDir()
	a, b := runPenaltyShards(t, base)
	out := filepath.Join(base, "out")
	if _, err := Merge(out, []string{a}, false); err == nil ||
		!strings.Contains(err.Error(), "the shards hold 1 of the plan's 2 runs (shard 1/2 is missing)") {
		t.Errorf("merge of shard 0/2 alone: %v", err)
	}
	// The same shard twice is named as such, not as a missing shard, even with --partial.
	for _, twice := range [][]string{{a, a}, {a, a + string(filepath.Separator)}, {a, b, a}} {
		if _, err := Merge(out, twice, true); err == nil || !strings.Contains(err.Error(), "the same shard directory given twice") {
			t.Errorf("merge of %v: %v", twice, err)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused merge wrote its directory")
	}
	got, err := Merge(out, []string{a}, true)
	if err != nil || got != (Merged{Runs: 1, Total: 2}) {
		t.Fatalf("--partial merge: %+v, %v", got, err)
	}
	if report := read(t, filepath.Join(out, ReportFile)); !bytes.Contains(report, []byte("**Partial merge:** the shards merged (with `--partial`) hold 1 of the plan's 2 runs")) {
		t.Errorf("the partial report does not say so:\n%s", report)
	}
	// The complete merge replaces the partial one.
	if got, err := Merge(out, []string{a, b}, false); err != nil || got != (Merged{Runs: 2, Total: 2}) {
		t.Fatalf("complete merge over the partial one: %+v, %v", got, err)
	}
	before := read(t, filepath.Join(out, ReportFile))
	if bytes.Contains(before, []byte("Partial")) {
		t.Error("the complete merge's report says it is partial")
	}

	m, err := ReadManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	metrics := filepath.Join(m.runDir(b, m.Runs[0].ID), run.MetricsFile)
	good := read(t, metrics)
	first, _, _ := bytes.Cut(good, []byte("\n"))
	damaged := append(append(append([]byte(nil), good...), "{\"kind\": tor\n"...), append(first, '\n')...)
	if err := os.WriteFile(metrics, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(out, []string{a, b}, false); err == nil || !strings.Contains(err.Error(), metrics+": metrics line ") {
		t.Errorf("merge of a damaged metrics file: %v, want it named", err)
	}
	if after := read(t, filepath.Join(out, ReportFile)); !bytes.Equal(before, after) {
		t.Error("a failed merge changed the earlier merge's report")
	}
	if copied := read(t, filepath.Join(out, RunsDir, m.Runs[0].ID, run.MetricsFile)); !bytes.Equal(copied, good) {
		t.Error("a failed merge changed the earlier merge's copy of the metrics")
	}
	fresh := filepath.Join(base, "fresh")
	if _, err := Merge(fresh, []string{a, b}, false); err == nil {
		t.Error("merge of a damaged metrics file into a new directory succeeded")
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a failed merge wrote its directory")
	}
	noLeftovers(t, base)
	if _, err := Merge(a, []string{b}, true); err == nil || !strings.Contains(err.Error(), "holds this experiment's runs, not a merge") {
		t.Errorf("merge into a shard's directory: %v", err)
	}
}

// runPenaltyShards runs the two shards of a one-seed penalty preset into base/a and base/b.
func runPenaltyShards(t *testing.T, base string) (a, b string) {
	t.Helper()
	a, b = filepath.Join(base, "a"), filepath.Join(base, "b")
	for i, d := range []string{a, b} {
		o := tinyOptions("penalty", 1)
		o.Shard = Shard{I: i, N: 2}
		runPreset(t, o, d)
	}
	return a, b
}

// Inputs that hold a run twice are refused in either order, naming both, whatever their scores:
// the merge would otherwise keep whichever came last. A whole experiment or a merge given as a
// shard is refused as such.
func TestMergeRefusesOverlapsAndWholeExperiments(t *testing.T) {
	base := t.TempDir()
	a, b := runPenaltyShards(t, base)
	again := filepath.Join(base, "again")
	o := tinyOptions("penalty", 1)
	o.Shard = Shard{I: 0, N: 3}
	runPreset(t, o, again) // the shard 0/3 holds run 0 of the plan, as 0/2 does
	m, err := ReadManifest(again)
	if err != nil {
		t.Fatal(err)
	}
	score := filepath.Join(m.runDir(again, m.Runs[0].ID), TestScoreFile)
	if err := os.WriteFile(score, bytes.Replace(read(t, score), []byte("0."), []byte("0.1"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(base, "whole")
	runPreset(t, tinyOptions("penalty", 1), whole)
	out := filepath.Join(base, "out")
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{a, again}, a + " and " + again + " both hold run "},
		{[]string{again, a, b}, again + " and " + a + " both hold run "},
		{[]string{a, whole}, whole + " is a whole experiment (run without --shard), not a shard"},
		{[]string{whole}, whole + " is a whole experiment"},
	} {
		if _, err := Merge(out, tc.in, true); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge of %v: %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused merge wrote its directory")
	}
	if _, err := Merge(out, []string{a, b}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(filepath.Join(base, "out2"), []string{out}, true); err == nil || !strings.Contains(err.Error(), out+" is a merge, not a shard") {
		t.Errorf("merge of a merge: %v", err)
	}
}

// A merge's leftover that an older version left as the only copy of --out (moved aside, not
// marked as a copy) is refused by the next merge in its directory, not deleted.
func TestMergeKeepsAnUnmarkedLeftover(t *testing.T) {
	base := t.TempDir()
	a, b := runPenaltyShards(t, base)
	aside := filepath.Join(base, mergeTempPrefix+"123")
	if _, err := Merge(aside, []string{a, b}, false); err == nil || !strings.Contains(err.Error(), "is a merge's temporary directory") {
		t.Errorf("--out named as a leftover: %v", err)
	}
	// What an older version left: --out moved aside under a temporary name.
	if _, err := Merge(filepath.Join(base, "old"), []string{a, b}, false); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(base, "old"), aside); err != nil {
		t.Fatal(err)
	}
	before := read(t, filepath.Join(aside, ReportFile))
	if _, err := Merge(filepath.Join(base, "out"), []string{a, b}, false); err == nil || !strings.Contains(err.Error(), aside+" was left by a killed process") {
		t.Errorf("merge beside an unmarked leftover: %v", err)
	}
	if after := read(t, filepath.Join(aside, ReportFile)); !bytes.Equal(before, after) {
		t.Error("the leftover changed")
	}
}

package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose metrics hold the start event of a resume from an early checkpoint (one without the
// replay buffer, after a kill) is named in report.md, and results.csv carries the resume; a
// report without such a run says nothing of it.
func TestReportFlagsRunsResumedWithoutReplay(t *testing.T) {
	dir := t.TempDir()
	runPreset(t, tinyOptions("penalty", 2), dir)
	if report := read(t, filepath.Join(dir, ReportFile)); bytes.Contains(report, []byte("replay buffer")) {
		t.Errorf("a report of uninterrupted runs speaks of resumes:\n%s", report)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	id := sortedRuns(m.Runs)[1].ID
	f, err := os.OpenFile(filepath.Join(m.runDir(dir, id), "metrics.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString(`{"kind":"event","step":30,"wall":1,"event":"start","old":0,"new":0,"resumed_early":true}` + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteReport(dir); err != nil {
		t.Fatal(err)
	}
	report := string(read(t, filepath.Join(dir, ReportFile)))
	if !strings.Contains(report, "## Runs resumed without their replay buffer") || !strings.Contains(report, "- `"+id+"` (penalty on, seed 2): at step 30") {
		t.Errorf("report.md does not name %s as resumed without its replay buffer at step 30:\n%s", id, report)
	}
	if csv := string(read(t, filepath.Join(dir, ResultsFile))); !strings.Contains(csv, "resumed-without-replay,penalty on,"+id+",30,seed 2,1,1\n") {
		t.Errorf("results.csv does not carry the resume of %s:\n%s", id, csv)
	}
}

package run

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomicKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomic(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("new", 1<<20)) // more than the write buffer: a real partial file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("content %q after a failed write", got[:min(len(got), 10)])
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestTruncateMetrics(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	body := `{"kind":"event","step":0,"wall":0,"event":"start"}
{"kind":"train","step":5,"wall":1,"reward_mean":1}
{"kind":"event","step":5,"wall":1,"event":"checkpoint"}
{"kind":"train","step":10,"wall":2,"reward_mean":2}
{"kind":"train","step":15,"wa`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := TruncateMetrics(dir, 5); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(path)
	if err != nil || len(recs) != 3 || recs[2].Event == nil || recs[2].Event.Event != EventCheckpoint {
		t.Errorf("after truncation: %+v, %v", recs, err)
	}
}

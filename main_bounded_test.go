package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"spg-tui/run"
)

// TestResumeRefusesHugeOrSpecialFiles is issue 33's sixth reproduction and its kin at the
// command line: a run whose metrics.jsonl is extended to 64 GB of NULs (fatal out of memory in
// run.MetricsRunIDs), or whose metrics.jsonl or config.json is a FIFO (a hang), is refused in
// one line with exit 1, a file that cannot be read as what it should be.
func TestResumeRefusesHugeOrSpecialFiles(t *testing.T) {
	base := filepath.Join(t.TempDir(), "run")
	if out, err := spgTUI(tinyTrain(base)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, c := range []struct {
		name, file, want string
		spoil            func(path string) error
	}{
		{"huge metrics", run.MetricsFile, "is over 64.0 MiB: not a metrics file", func(p string) error { return os.Truncate(p, 64<<30) }},
		{"FIFO metrics", run.MetricsFile, "metrics.jsonl is a named pipe, not a regular file", mkfifo},
		{"FIFO config", run.ConfigFile, "config.json is a named pipe, not a regular file", mkfifo},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		if err := c.spoil(filepath.Join(dir, c.file)); err != nil {
			t.Skipf("%s: %v", c.name, err)
		}
		status, _, msg := runCLI(t, nil, "train", "--resume", dir, "--steps", "10")
		if status != exitFailed || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("%s: exit %d, %q; want exit 1 and one line with %q", c.name, status, msg, c.want)
		}
	}
}

// mkfifo replaces the file at path with a FIFO that nothing writes.
func mkfifo(path string) error {
	os.Remove(path)
	return syscall.Mkfifo(path, 0o644)
}

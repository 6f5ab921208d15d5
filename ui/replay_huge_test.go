package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/internal/filetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// TestViewRefusesASparseConfigOrAFIFO: --view reads config.json bounded, and opens neither a
// FIFO config.json nor a FIFO metrics.jsonl (which used to hang before the first frame).
func TestViewRefusesASparseConfigOrAFIFO(t *testing.T) {
	dir, _, _ := viewFixture(t)
	if err := os.Truncate(filepath.Join(dir, run.ConfigFile), 64<<30); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	if _, err := runlog.Open(dir); err == nil || !strings.Contains(err.Error(), "config.json is 64.0 GiB, more than the 1.0 MiB") {
		t.Errorf("sparse config.json: %v", err)
	}
	dir, _, _ = viewFixture(t)
	metrics := filepath.Join(dir, run.MetricsFile)
	os.Remove(metrics)
	filetest.FIFO(t, metrics)
	err := filetest.Within(t, "--view of a FIFO metrics.jsonl", func() error { _, err := runlog.Open(dir); return err })
	if err == nil || !strings.Contains(err.Error(), "metrics.jsonl is a named pipe, not a regular file") {
		t.Errorf("FIFO metrics.jsonl: %v", err)
	}
}

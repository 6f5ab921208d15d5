package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"spg-tui/agent/authors"
	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// An imported run (the authors' actor, no training steps) opens read-only like a trained one.
func TestViewImportedRun(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 15)
	cfg.ValSize, cfg.TestSize = 100, 100
	dir := filepath.Join(t.TempDir(), "authors15")
	val, _, err := authors.ImportActor(cfg, filepath.Join("..", "agent", "authors", "testdata", "authors", "actor-mwm15.npz"), dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runlog.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(r, enginetest.Start, false, true)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m.poll()
	if m.ctx.status.State != run.StateDone {
		t.Errorf("status %+v", m.ctx.status)
	}
	sc := screen(m)
	if want := fmt.Sprintf("%.3f", val.Metric); !strings.Contains(sc, "viewing, read-only") || !strings.Contains(sc, want) {
		t.Errorf("view lacks the read-only mark or the validation ratio %s:\n%s", want, sc)
	}
}

package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// tinyConfig is a configuration small enough for tests, of 400 steps.
func tinyConfig(task envs.Task, n int) run.Config { return enginetest.TinyConfig(task, n, 400) }

// runScripted runs a scripted engine to its end and returns it with every record it emitted.
func runScripted(t testing.TB, cfg run.Config, dir string) (*enginetest.Engine, []run.Record) {
	t.Helper()
	e, err := enginetest.New(cfg, dir, enginetest.Options{Buffer: 100000})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-e.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("scripted run did not end")
	}
	var recs []run.Record
	run.Drain(e.Records(), 0, func(r run.Record) { recs = append(recs, r) })
	return e, recs
}

// staticEngine is a finished run whose records are fed to the model by hand, for deterministic
// renderings.
type staticEngine struct {
	info   run.RunInfo
	cfg    run.Config
	status run.Status
	sets   []string
	err    error
}

func (s *staticEngine) Info() run.RunInfo  { return s.info }
func (s *staticEngine) Config() run.Config { return s.cfg }
func (s *staticEngine) Status() run.Status { return s.status }
func (s *staticEngine) Records() <-chan run.Record {
	c := make(chan run.Record)
	close(c)
	return c
}
func (s *staticEngine) Pause()      {}
func (s *staticEngine) Resume()     {}
func (s *staticEngine) Checkpoint() {}
func (s *staticEngine) Stop()       {}
func (s *staticEngine) Done() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}
func (s *staticEngine) Err() error { return nil }

func (s *staticEngine) Set(p string, v float64) error {
	if s.err != nil {
		return s.err
	}
	s.sets = append(s.sets, p)
	return nil
}

// newTestModel is a console of w×h cells without colour around eng.
func newTestModel(eng run.Engine, w, h int) *model {
	m := newModel(eng, enginetest.Start, false, false)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// screen is the model's rendering without ANSI sequences.
func screen(m *model) string { return ansi.Strip(m.render()) }

func press(m *model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

// keyMsg builds the key press a terminal sends for k.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "space":
		return tea.KeyPressMsg{Code: ' ', Text: " "}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

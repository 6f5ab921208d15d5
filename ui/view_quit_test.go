package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestViewQuitsAtOnce: q on a read-only view used to wait the whole stop timeout twice (the
// replay never said it was done), about 8 s, and to show "file already closed" meanwhile, as the
// next frame read the file Stop had closed.
func TestViewQuitsAtOnce(t *testing.T) {
	dir, _, _ := viewFixture(t)
	m := openView(t, dir, 100, 30)
	start := time.Now()
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil || !m.quitting {
		t.Fatal("q did not start quitting")
	}
	if msg := cmd(); msg != (quitReadyMsg{}) {
		t.Fatalf("quit command returned %T", msg)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("quitting a view took %v", d)
	}
	m.Update(tickMsg(time.Now())) // a frame drawn after the stop
	if m.msg.err || strings.Contains(screen(m), "closed") {
		t.Errorf("the view reports an error once stopped: %q", m.msg.text)
	}
	if _, cmd := m.Update(quitReadyMsg{}); cmd == nil || cmd() != tea.Quit() {
		t.Error("quitReadyMsg does not quit")
	}
	select {
	case <-m.engine.Done():
	default:
		t.Error("the stopped view is not done")
	}
}

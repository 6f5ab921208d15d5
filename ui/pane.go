package ui

import (
	tea "charm.land/bubbletea/v2"
)

// pane is one part of the console's screen: the header, a chart, the sample viewer, the
// parameter panel, the events, the ablation view. The root model sizes the panes, routes the
// messages meant for one to its Update, finds their keys in their bindings and lays their views
// out.
type pane interface {
	SetSize(w, h int)
	// Update takes a message routed to the pane (the parameter panel's typing) and returns a
	// command, if any.
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Bindings are the pane's keys and what each does.
	Bindings() []binding
}

// paneBase is what every pane embeds: the program context it reads, its size and the cache of
// its last rendering. Its Update and Bindings do nothing, for panes that only draw.
type paneBase struct {
	ctx   *programContext
	w, h  int
	cache viewCache
}

// SetSize implements pane.
func (b *paneBase) SetSize(w, h int) { b.w, b.h = w, h }

// Update implements pane: a pane that takes no messages ignores them.
func (b *paneBase) Update(tea.Msg) tea.Cmd { return nil }

// Bindings implements pane: a pane without keys has none.
func (b *paneBase) Bindings() []binding { return nil }

// cached returns the pane's last rendering if versions and the size are those it was drawn
// for, and draws it again otherwise.
func (b *paneBase) cached(versions [4]int, draw func() string) string {
	return b.cache.get(renderKey{v: versions, w: b.w, h: b.h}, draw)
}

// Every pane of the console is a pane.
var _ = []pane{(*header)(nil), (*rewardPane)(nil), (*criticPane)(nil), (*scatterPane)(nil),
	(*samplePane)(nil), (*paramsPane)(nil), (*eventsPane)(nil), (*ablationView)(nil)}

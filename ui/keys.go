package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"spg-tui/run"
)

// binding is an entry of the console's key table: the keys it matches with their help, the
// column of the full help that lists it, and what it does.
type binding struct {
	key.Binding
	col int
	do  func() tea.Cmd
}

// Columns of the full help; unlisted bindings are left out of it.
const (
	unlisted   = -1
	colRun     = iota - 1 // training controls
	colViews              // samples, views, export
	colPanel              // the parameter panel
	colProgram            // help and quit
)

// bind is a binding of keys, shown as helpKey and desc.
func bind(keys []string, helpKey, desc string, col int, do func() tea.Cmd) binding {
	return binding{Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc)), col: col, do: do}
}

// cmdless adapts an action without a command.
func cmdless(f func()) func() tea.Cmd {
	return func() tea.Cmd {
		f()
		return nil
	}
}

// keyMap holds the console's own keys: the training controls, the views and the program. The
// modal states (typing, the help, the task dialog) look at Help and Quit themselves.
type keyMap struct {
	Pause, Penalty, Explore, Task, Ablation, Save, Export, Help, Quit binding
}

func (m *model) newKeyMap() keyMap {
	return keyMap{
		Pause:    bind([]string{"space"}, "space", "pause/resume", colRun, cmdless(m.togglePause)),
		Penalty:  bind([]string{"p"}, "p", "critic penalty on/off", colRun, cmdless(func() { m.toggle(run.FlagCriticPenalty) })),
		Explore:  bind([]string{"x"}, "x", "exploration on/off", colRun, cmdless(func() { m.toggle(run.FlagExploration) })),
		Save:     bind([]string{"s"}, "s", "save a checkpoint", colRun, cmdless(m.checkpoint)),
		Task:     bind([]string{"t"}, "t", "switch task and size", colRun, cmdless(m.openTaskDialog)),
		Ablation: bind([]string{"a"}, "a", "ablation view", colViews, cmdless(m.toggleView)),
		Export:   bind([]string{"e"}, "e", "export curves (CSV, PNG)", colViews, m.export),
		Help:     bind([]string{"?"}, "?", "help", colProgram, cmdless(func() { m.showHelp = true })),
		Quit:     bind([]string{"q", "ctrl+c"}, "q", "quit (checkpoints)", colProgram, m.quit),
	}
}

// table is the console's key table for view v, in the order of the full help: the ablation
// view's keys first while it is shown, the sample viewer's while the main view is, then the
// console's own, then the parameter panel's. A key does what its first binding does.
func (m *model) table(v viewKind) []binding {
	var out []binding
	switch v {
	case viewAblation:
		out = append(out, m.ablation.Bindings()...)
	case viewMain:
		out = append(out, m.sample.Bindings()...)
	}
	k := m.keys
	out = append(out, k.Pause, k.Penalty, k.Explore, k.Save, k.Task, k.Ablation, k.Export, k.Help, k.Quit)
	return append(out, m.params.Bindings()...)
}

// dispatch runs the first binding of the table that matches k; it reports whether one did.
func (m *model) dispatch(k tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, b := range m.table(m.view) {
		if key.Matches(k, b.Binding) {
			return b.do(), true
		}
	}
	return nil, false
}

// helpKeys are the bindings of the main view's table for bubbles/help.
type helpKeys struct{ table []binding }

// shortHelp are the footer's reminders: the keys of the full help, grouped, with short words.
var shortHelp = []key.Binding{
	key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause")),
	key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "penalty")),
	key.NewBinding(key.WithKeys("up", "down", "+", "-"), key.WithHelp("↑↓ +-", "tune")),
	key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←→", "samples")),
	key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "ablations")),
	key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
	key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
}

// ShortHelp implements help.KeyMap.
func (h helpKeys) ShortHelp() []key.Binding { return shortHelp }

// FullHelp implements help.KeyMap: the table's bindings by column, in the table's order.
func (h helpKeys) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for _, b := range h.table {
		if b.col == unlisted {
			continue
		}
		for len(cols) <= b.col {
			cols = append(cols, nil)
		}
		cols[b.col] = append(cols[b.col], b.Binding)
	}
	return cols
}

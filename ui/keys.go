package ui

import (
	"fmt"

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
	Pause, Penalty, Explore, Task, Ablation, Compare, XAxis, Save, Export, Help, Quit binding
}

func (m *model) newKeyMap() keyMap {
	return keyMap{
		Pause:    bind([]string{"space"}, "space", "pause/resume/continue", colRun, m.togglePause),
		Penalty:  bind([]string{"p"}, "p", "critic penalty on/off", colRun, cmdless(func() { m.toggle(run.FlagCriticPenalty) })),
		Explore:  bind([]string{"x"}, "x", "exploration on/off", colRun, cmdless(func() { m.toggle(run.FlagExploration) })),
		Save:     bind([]string{"s"}, "s", "save a checkpoint", colRun, cmdless(m.checkpoint)),
		Task:     bind([]string{"t"}, "t", "switch task and size", colRun, cmdless(m.openTaskDialog)),
		Ablation: bind([]string{"a"}, "a", "ablation view", colViews, cmdless(m.toggleView)),
		XAxis:    bind([]string{"w"}, "w", "x-axis: steps/time", colViews, cmdless(m.toggleXAxis)),
		Compare:  bind([]string{"c"}, "c", "compare the runs / the first run", colViews, cmdless(m.toggleCompare)),
		Export:   bind([]string{"e"}, "e", "export curves and figures", colViews, m.export),
		Help:     bind([]string{"?"}, "?", "help", colProgram, cmdless(func() { m.showHelp = true })),
		Quit:     bind([]string{"q", "ctrl+c"}, "q", quitHelp(m.ctx.readOnly), colProgram, m.quit),
	}
}

// table is the console's key table for view v, in the order of the full help: the ablation
// view's keys first while it is shown, the sample viewer's while the main view is, then the
// console's own, then the parameter panel's. A key does what its first binding does. The compare
// view has its own keys only, besides c, help and quit: the main view's keys would act on a run
// it does not show.
func (m *model) table(v viewKind) []binding {
	var out []binding
	k := m.keys
	switch v {
	case viewCompare:
		return append(m.compare.Bindings(), m.compareExportKey(), k.Compare, k.Help, k.Quit)
	case viewAblation:
		out = append(out, m.ablation.Bindings()...)
	case viewMain:
		out = append(out, m.sample.Bindings()...)
		out = append(out, m.cursorBindings()...)
	}
	if m.compare != nil {
		out = append(out, k.Compare)
	}
	if m.ctx.readOnly {
		// The keys that would change the run are answered with a refusal, not silence. The
		// ablation view shows an experiment's results; a run's view has no launcher (it trains).
		out = append(out, k.XAxis)
		if m.ablation.static != "" {
			out = append(out, k.Ablation)
		}
		out = append(out, k.Export, k.Help, k.Quit)
		out = append(out, m.params.Bindings()...)
		return append(out, m.readOnlyRefusals()...)
	}
	out = append(out, k.Pause, k.Penalty, k.Explore, k.Save, k.Task, k.XAxis, k.Ablation, k.Export, k.Help, k.Quit)
	return append(out, m.params.Bindings()...)
}

// readOnlyRefusals are the training keys in a read-only view: each says what it would have done
// and why it does not, so that no key of the console is silent there. The help leaves them out.
func (m *model) readOnlyRefusals() []binding {
	var out []binding
	for _, b := range []binding{m.keys.Pause, m.keys.Penalty, m.keys.Explore, m.keys.Save, m.keys.Task} {
		what := fmt.Sprintf("%s (%s) changes the run", b.Help().Key, b.Help().Desc)
		out = append(out, bind(b.Keys(), b.Help().Key, b.Help().Desc, unlisted, cmdless(func() { m.refuseReadOnly(what) })))
	}
	return append(out, bind(m.keys.Ablation.Keys(), "a", "ablation launcher", unlisted,
		cmdless(func() { m.refuseReadOnly("a opens the ablation launcher, which trains new runs") })))
}

// refuseReadOnly tells that what a key asked for is not done in a read-only view, and who can.
func (m *model) refuseReadOnly(what string) {
	m.fail("read-only view: %s; %s", what, m.whoTrains())
}

// whoTrains says who can change the viewed run: the process training it, or a resume.
func (m *model) whoTrains() string {
	if m.ctx.writer > 0 {
		return fmt.Sprintf("PID %d trains it", m.ctx.writer)
	}
	return "to train it: " + Command + " tui --resume " + m.ctx.info.Dir
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

// Footer reminders: the keys of the full help, grouped, with short words. Help and quit are
// always shown; the others as room allows.
var (
	hintPause    = key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause"))
	hintResume   = key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "resume"))
	hintPenalty  = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "penalty"))
	hintTune     = key.NewBinding(key.WithKeys("up", "down", "+", "-"), key.WithHelp("↑↓ +-", "tune"))
	hintDisplay  = key.NewBinding(key.WithKeys("up", "down", "+", "-"), key.WithHelp("↑↓ +-", "display"))
	hintSamples  = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←→", "samples"))
	hintAblation = key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "ablations"))
	hintRuns     = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑↓", "select"))
	hintHide     = key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hide"))
	hintPin      = key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pin"))
	hintSort     = key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort"))
	hintXAxis    = key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "x-axis"))
	hintCompare  = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare"))
	hintFirstRun = key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "first run"))
	hintHelp     = key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help"))
	hintQuit     = key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit"))
)

// shortKeys are the footer's reminders: those shown as room allows, in order, and those always
// shown. A read-only view offers no key that changes the run.
func (m *model) shortKeys() (optional, always []key.Binding) {
	always = []key.Binding{hintHelp, hintQuit}
	switch {
	case m.view == viewCompare:
		return []key.Binding{hintRuns, hintHide, hintPin, hintSort, hintXAxis, hintFirstRun}, always
	case m.compare != nil:
		return []key.Binding{hintCompare, hintDisplay, hintSamples}, always
	case m.ctx.readOnly && m.ablation.static != "":
		return []key.Binding{hintDisplay, hintSamples, hintAblation}, always
	case m.ctx.readOnly:
		// No ablation launcher: a view trains nothing.
		return []key.Binding{hintDisplay, hintSamples}, always
	case m.ctx.status.State == run.StateDone:
		return m.doneKeys(), always
	}
	pause := hintPause
	if m.ctx.status.State == run.StatePaused {
		pause = hintResume
	}
	return []key.Binding{pause, hintPenalty, hintTune, hintSamples, hintAblation}, always
}

// ShortHelp implements help.KeyMap; the footer picks its reminders itself (shortKeys).
func (h helpKeys) ShortHelp() []key.Binding { return nil }

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

// quitHelp says what q does: a trained run is checkpointed first, a viewed one is left alone.
func quitHelp(readOnly bool) string {
	if readOnly {
		return "quit"
	}
	return "quit (checkpoints)"
}

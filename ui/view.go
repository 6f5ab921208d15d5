package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"spg-tui/ui/draw"
)

// View implements tea.Model.
func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// Clicks move the step cursor and switch a chart's scale (click); selecting text then
	// takes shift in most terminals.
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "spg-tui · " + m.ctx.info.Title
	return v
}

// render draws the whole screen.
func (m *model) render() string {
	if m.width < minWidth || m.height < minHeight {
		return m.tooSmall()
	}
	l := computeLayout(m.width, m.height)
	head := m.header.View()
	if m.view == viewCompare {
		head = m.compare.header(m.width)
	}
	return head + "\n" + m.body(l) + "\n" + m.footer()
}

func (m *model) tooSmall() string {
	msg := []string{
		"terminal too small",
		"",
		"spg-tui needs at least 80×24",
		"(this one is " + itoa(m.width) + "×" + itoa(m.height) + ")",
		"",
		"q quits",
	}
	w, h := max(m.width, 1), max(m.height, 1)
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(msg, "\n"))
}

func itoa(n int) string { return draw.FmtInt(n) }

func (m *model) body(l layout) string {
	w, h := l.body.w, l.body.h
	switch {
	case m.dialog != nil:
		return m.boxed("Switch task", m.dialog.view(m.ctx.st, w), w, h)
	case m.showHelp:
		hm := m.help
		hm.ShowAll = true
		keys := helpKeys{table: m.table(m.view)}
		lines := strings.Split(hm.View(keys), "\n")
		lines = append([]string{m.ctx.st.Bold.Render("Keys"), ""}, lines...)
		lines = append(lines, "", m.ctx.st.Dim.Render("? or esc closes this help"))
		return m.boxed("Help", lines, w, h)
	case m.view == viewAblation:
		return m.ablation.View()
	case m.view == viewCompare:
		return m.compare.View()
	}
	left := draw.VJoin(m.reward.View(), m.critic.View())
	if l.wide {
		mid := draw.VJoin(m.scatter.View(), m.sample.View())
		right := draw.VJoin(m.params.View(), m.events.View())
		return draw.HJoin(left, mid, right)
	}
	return draw.HJoin(left, draw.VJoin(m.params.View(), draw.HJoin(m.scatter.View(), m.sample.View())))
}

// boxed centres a framed box of lines in the body.
func (m *model) boxed(title string, lines []string, w, h int) string {
	bw := 4
	padded := []string{""}
	for _, l := range lines {
		bw = max(bw, lipgloss.Width(l)+4)
		padded = append(padded, " "+l)
	}
	bw = min(bw, w)
	box := draw.Frame(title, padded, bw, min(len(padded)+2, h), m.ctx.st, true)
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}

// footer is the message of the last action on the left and the main keys on the right.
func (m *model) footer() string {
	st := m.ctx.st
	text := m.msg.text
	style := st.OK
	if m.msg.err {
		style = st.Err
	}
	switch {
	case m.params.editing:
		text, style = "type a value: enter applies, esc cancels", st.Warn
	case m.switching:
		text, style = m.starting, st.Warn
	case text == "" && m.view == viewMain && !computeLayout(m.width, m.height).wide:
		// A compact screen has no events pane: an idle footer shows the latest event, as it
		// would a message (the hints it displaces are in ? help).
		if ev := m.ctx.data.events; len(ev) > 0 {
			text, style = "step "+strings.TrimSpace(ev[len(ev)-1]), st.Dim
		}
	}
	// A message takes up to half the line from the key hints; an error, which says what to do
	// instead, all but help and quit.
	room := m.width / 2
	if m.msg.err && text == m.msg.text {
		room = m.width - lipgloss.Width(m.hints(0)) - 1
	}
	hints := m.hints(m.width - min(lipgloss.Width(text), room) - 1)
	return draw.Spread(style.Render(text), hints, m.width)
}

// hints are the footer's key reminders that fit in room columns: the optional ones are dropped
// from the end until they fit, but help and quit are always shown.
func (m *model) hints(room int) string {
	optional, always := m.shortKeys()
	hm := m.help
	hm.SetWidth(0)
	for n := len(optional); ; n-- {
		s := hm.ShortHelpView(append(optional[:n:n], always...))
		if n == 0 || lipgloss.Width(s) <= room {
			return s
		}
	}
}

// helpStyles are bubbles/help's styles in the console's palette.
func helpStyles(st draw.Styles) help.Styles {
	return help.Styles{
		Ellipsis: st.Dim, ShortKey: st.Key, ShortDesc: st.Dim, ShortSeparator: st.Dim,
		FullKey: st.Key, FullDesc: lipgloss.NewStyle(), FullSeparator: st.Dim,
	}
}

// Screen sizes: the console is laid out for minWide×minTall and larger, and stays readable down
// to minWidth×minHeight; below that it asks for a larger terminal.
const (
	minWidth  = 80
	minHeight = 24
	minWide   = 110
	minTall   = 30
	// headerLines and footerLines frame the body.
	headerLines = 2
	footerLines = 1
)

// rect is a pane's size.
type rect struct{ w, h int }

// layout is the size of every pane for one screen size.
type layout struct {
	wide                                            bool
	reward, critic, scatter, sample, params, events rect
	body                                            rect
}

// computeLayout splits the screen. Wide: three columns — curves, Figure 2 and the sample, the
// panel and the events. Compact: the curves on the left, the panel above the scatter and the
// sample side by side on the right; no events pane.
func computeLayout(w, h int) layout {
	body := rect{w, h - headerLines - footerLines}
	l := layout{body: body, wide: w >= minWide && h >= minTall}
	if l.wide {
		c3 := 30
		c2 := (w - c3) * 2 / 5
		c1 := w - c3 - c2
		rh := body.h * 55 / 100
		l.reward, l.critic = rect{c1, rh}, rect{c1, body.h - rh}
		sh := body.h / 2
		l.scatter, l.sample = rect{c2, sh}, rect{c2, body.h - sh}
		ph := len(paramItems) + 3 // the items, a separator and the border
		l.params, l.events = rect{c3, ph}, rect{c3, body.h - ph}
		return l
	}
	left := w / 2
	right := w - left
	rh := body.h * 55 / 100
	l.reward, l.critic = rect{left, rh}, rect{left, body.h - rh}
	ph := min(len(paramItems)+2, body.h-8)
	half := right / 2
	l.params = rect{right, ph}
	l.scatter, l.sample = rect{half, body.h - ph}, rect{right - half, body.h - ph}
	return l
}

package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"spg-tui/ui/draw"
)

// maxFilter bounds the filter's text.
const maxFilter = 80

// runFilter keeps the compare view's runs whose name or settings match typed text: each word
// must match, "key=value" a setting exactly (tau=0.1, critic_penalty=false→true), any other
// word a part of the run's name or of one of its settings. Letters' case does not matter.
type runFilter struct {
	input  textinput.Model
	typing bool
}

func newRunFilter() runFilter {
	in := textinput.New()
	in.Prompt = "/"
	in.CharLimit = maxFilter
	in.Placeholder = "a run's name or setting (tau=0.1)"
	return runFilter{input: in}
}

// text is the filter's text, "" when none.
func (f *runFilter) text() string { return strings.TrimSpace(f.input.Value()) }

// matches reports whether r is kept.
func (f *runFilter) matches(r *compareRun) bool {
	words := strings.Fields(strings.ToLower(f.text()))
	if len(words) == 0 {
		return true
	}
	var settings []string
	for k, v := range r.settings() {
		settings = append(settings, strings.ToLower(k+"="+v))
	}
	label := strings.ToLower(r.label)
	for _, w := range words {
		found := strings.Contains(label, w)
		for _, s := range settings {
			if strings.Contains(w, "=") && s == w || !strings.Contains(w, "=") && strings.Contains(s, w) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// line is the view's line for the filter: the text being typed, or the filter in force and how
// many of the runs it keeps; "" when there is none.
func (f *runFilter) line(kept, all int, st draw.Styles) string {
	count := st.Dim.Render(fmt.Sprintf("  %d of %d runs", kept, all))
	switch {
	case f.typing:
		return f.input.View() + count + st.Dim.Render(" · enter keeps, esc clears")
	case f.text() != "":
		return st.Warn.Render("/"+f.text()) + count + st.Dim.Render(" · / changes, esc clears")
	}
	return ""
}

// startFilter begins typing the filter.
func (v *compareView) startFilter() tea.Cmd {
	v.filter.typing = true
	v.ver++
	return v.filter.input.Focus()
}

// clearFilter ends typing and keeps every run again.
func (v *compareView) clearFilter() {
	v.filter.typing = false
	v.filter.input.Blur()
	v.filter.input.SetValue("")
	v.ver++
}

// typing reports whether the filter is being typed: then every key goes to filterUpdate.
func (v *compareView) typing() bool { return v.filter.typing }

// filterUpdate takes a message while the filter is typed: the runs follow each key; enter
// keeps the filter, esc clears it.
func (v *compareView) filterUpdate(msg tea.Msg) tea.Cmd {
	v.ver++
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, filterKeep):
			v.filter.typing = false
			v.filter.input.Blur()
			return nil
		case key.Matches(k, filterClear):
			v.clearFilter()
			return nil
		}
	}
	var cmd tea.Cmd
	v.filter.input, cmd = v.filter.input.Update(msg)
	v.sel = 0
	return cmd
}

// The keys that end typing the filter.
var (
	filterKeep  = key.NewBinding(key.WithKeys("enter"))
	filterClear = key.NewBinding(key.WithKeys("esc"))
)

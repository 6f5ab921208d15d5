package ui

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"spg-tui/run"
	"spg-tui/ui/draw"
)

// Display settings of the panel: they change the console, not the run.
const (
	displaySmoothing = "smoothing"
	displayLogScale  = "log-scale"
)

// paramItem is one row of the panel: a live parameter of the run (run.Params) or a display
// setting.
type paramItem struct {
	label   string
	name    string // a run.Params name, or a display setting
	kind    run.ParamKind
	step    float64 // run.Linear
	display bool
	// get reads a live parameter from the run's configuration at a step (nil for a display
	// setting).
	get func(c *run.Config, step int) float64
	// kinds are the kinds of models a live parameter applies to (run.Param.Kinds).
	kinds []run.ModelKind
}

// paramItems are the panel's rows: the live parameters that have a panel label, in the table's
// order, then the display settings.
var paramItems = panelItems()

func panelItems() []paramItem {
	var items []paramItem
	for _, p := range run.Params {
		if p.Label != "" {
			items = append(items, paramItem{label: p.Label, name: p.Name, kind: p.Kind, step: p.Step, get: p.Get, kinds: p.Kinds})
		}
	}
	return append(items,
		paramItem{label: "smoothing", name: displaySmoothing, kind: run.Linear, step: 0.1, display: true},
		paramItem{label: "log scale", name: displayLogScale, kind: run.Whole, display: true})
}

// change is a request from the panel: set a parameter or a switch of the run, or a display
// setting. err is a value the panel itself refused (typed text that is not a number).
type change struct {
	item  paramItem
	value float64 // numbers; switches use on
	on    bool
	err   error
}

// paramsPane lists the live hyperparameters and display settings; up/down select, +/- change,
// enter types a value.
type paramsPane struct {
	paneBase
	keys    paramKeys
	sel     int
	editing bool
	input   textinput.Model
	// pending holds the values asked for and accepted but not yet in force: the engine applies
	// them at the next step boundary and reports each with a set event, which clears it. A
	// second +/- before then steps from the pending value.
	pending map[string]float64
	// apply carries out a change the panel asks for (the model's apply).
	apply func(*change)
}

// paramKeys select and change the panel's values.
type paramKeys struct {
	Up, Down, Inc, Dec, Edit, Cancel binding
}

func newParamsPane(ctx *programContext, apply func(*change)) *paramsPane {
	in := textinput.New()
	in.Prompt = ""
	in.CharLimit = 24
	p := &paramsPane{paneBase: paneBase{ctx: ctx}, input: in, pending: map[string]float64{}, apply: apply}
	p.keys = paramKeys{
		Up:     bind([]string{"up"}, "↑", "select parameter", colPanel, cmdless(func() { p.sel = (p.sel - 1 + len(paramItems)) % len(paramItems) })),
		Down:   bind([]string{"down"}, "↓", "select parameter", colPanel, cmdless(func() { p.sel = (p.sel + 1) % len(paramItems) })),
		Inc:    bind([]string{"+", "="}, "+", "increase / switch on", colPanel, cmdless(func() { p.apply(p.stepped(true)) })),
		Dec:    bind([]string{"-", "_"}, "-", "decrease / switch off", colPanel, cmdless(func() { p.apply(p.stepped(false)) })),
		Edit:   bind([]string{"enter"}, "enter", "type a value / apply", colPanel, p.edit),
		Cancel: bind([]string{"esc"}, "esc", "cancel typing", colPanel, func() tea.Cmd { return nil }), // typing handles it (Update)
	}
	return p
}

// Bindings implements pane.
func (p *paramsPane) Bindings() []binding {
	k := p.keys
	return []binding{k.Up, k.Down, k.Inc, k.Dec, k.Edit, k.Cancel}
}

// SetSize implements pane.
func (p *paramsPane) SetSize(w, h int) {
	p.paneBase.SetSize(w, h)
	p.input.SetWidth(max(w-4-18, 4))
}

// value is the item's current value: from the run's live configuration, the latest training
// summary (epsilon), or the display settings.
func (p *paramsPane) value(it paramItem) float64 {
	if v, ok := p.pending[it.name]; ok {
		return v
	}
	switch {
	case it.get != nil:
		c := p.ctx.cfg
		return it.get(&c, p.ctx.status.Step)
	case it.name == displaySmoothing:
		return p.ctx.smoothing
	case it.name == displayLogScale:
		return float64(p.ctx.logScale)
	}
	return math.NaN()
}

// applies reports whether the item means anything for the run's model: a live parameter
// applies to the kinds of models it lists, and a critic-free model draws no critic losses.
func (p *paramsPane) applies(it paramItem) bool {
	k := p.ctx.model.Kind
	if it.display {
		return true
	}
	return slices.Contains(it.kinds, k)
}

// notApplicable is the refusal of a change to an item that does not apply to the model.
func (p *paramsPane) notApplicable(it paramItem) *change {
	return &change{item: it, err: fmt.Errorf("%s does not apply to %s (%s)", it.label, p.ctx.model.Title, p.ctx.model.Kind)}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// edit starts typing a value for the selected item; a switch is flipped instead.
func (p *paramsPane) edit() tea.Cmd {
	it := paramItems[p.sel]
	if !p.applies(it) {
		p.apply(p.notApplicable(it))
		return nil
	}
	v := p.value(it)
	if it.kind == run.Switch || p.ctx.readOnly && !it.display {
		// A read-only view refuses at once rather than after the value is typed.
		p.apply(&change{item: it, on: v == 0, value: v})
		return nil
	}
	p.editing = true
	// The prompt starts empty, the current value its placeholder: what is typed replaces it.
	p.input.SetValue("")
	p.input.Placeholder = strconv.FormatFloat(v, 'g', -1, 64)
	if it.name == displayLogScale {
		p.input.Placeholder = chartSet(v).String()
	}
	return p.input.Focus()
}

// stepped is the change one +/- press asks for on the selected item.
func (p *paramsPane) stepped(up bool) *change {
	it := paramItems[p.sel]
	if !p.applies(it) {
		return p.notApplicable(it)
	}
	v := p.value(it)
	if it.name == displayLogScale {
		return &change{item: it, value: float64(chartSet(v).stepped(up))}
	}
	switch it.kind {
	case run.Switch:
		return &change{item: it, on: up}
	case run.Ladder:
		return &change{item: it, value: ladderStep(v, up)}
	case run.Unit:
		next, err := unitStep(v, up)
		if err != nil {
			return &change{item: it, err: fmt.Errorf("%s %s: %v", it.label, formatValue(it, v), err)}
		}
		return &change{item: it, value: next}
	case run.Whole:
		if up {
			return &change{item: it, value: v + 1}
		}
		return &change{item: it, value: v - 1}
	}
	d := it.step
	if !up {
		d = -d
	}
	return &change{item: it, value: roundSig(v + d)}
}

// Update implements pane: while a value is typed, every message goes to the text input; enter
// applies the value and esc cancels.
func (p *paramsPane) Update(msg tea.Msg) tea.Cmd {
	if !p.editing {
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, p.keys.Cancel.Binding):
			p.stopEditing()
			return nil
		case key.Matches(k, p.keys.Edit.Binding):
			it := paramItems[p.sel]
			text := strings.TrimSpace(p.input.Value())
			p.stopEditing()
			if text == "" {
				return nil // nothing typed: the value stays
			}
			v, err := parseValue(it, text)
			if err != nil {
				p.apply(&change{item: it, err: err})
				return nil
			}
			p.apply(&change{item: it, value: v})
			return nil
		}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}

// parseValue reads a value typed for it: the charts for the log scale, a number otherwise.
func parseValue(it paramItem, text string) (float64, error) {
	if it.name == displayLogScale {
		s, err := parseChartSet(text)
		return float64(s), err
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number", it.label, text)
	}
	return v, nil
}

func (p *paramsPane) stopEditing() {
	p.editing = false
	p.input.Blur()
}

// formatValue shows an item's value: on/off for switches.
func formatValue(it paramItem, v float64) string {
	if it.kind == run.Switch {
		return onOff(v != 0)
	}
	switch it.name {
	case displaySmoothing:
		return fmt.Sprintf("%.2f", v)
	case displayLogScale:
		return chartSet(v).String()
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// View implements pane.
func (p *paramsPane) View() string {
	st := p.ctx.st
	w := p.w - 2
	var lines []string
	spare := p.h - 2 - len(paramItems)
	for i, it := range paramItems {
		if it.display && i > 0 && !paramItems[i-1].display && spare > 0 {
			lines = append(lines, st.Dim.Render(draw.Center("display", w)))
		}
		v := p.value(it)
		val := formatValue(it, v)
		marker := "  "
		if i == p.sel {
			marker = "› "
		}
		if i == p.sel && p.editing {
			lines = append(lines, marker+fmt.Sprintf("%-16s", it.label)+p.input.View())
			continue
		}
		if !p.applies(it) {
			val = "—"
		}
		row := marker + draw.Spread(it.label, val, w-2)
		switch {
		case i == p.sel:
			row = st.Sel.Render(row)
		case !p.applies(it):
			row = st.Dim.Render(row)
		}
		lines = append(lines, row)
	}
	title := "Hyperparameters"
	if p.ctx.readOnly {
		title = "Parameters (read-only)"
	}
	return draw.Frame(title, lines, p.w, p.h, st, true)
}

// ladderStep moves v one rung along the 1-2-5 ladder (…, 0.01, 0.02, 0.05, 0.1, …), up or down,
// the natural steps for a temperature or a learning rate. It is NaN unless v is finite and > 0.
func ladderStep(v float64, up bool) float64 {
	const eps = 1e-9
	if !(v > 0) || math.IsInf(v, 0) {
		return math.NaN()
	}
	e := math.Floor(math.Log10(v))
	best := math.NaN()
	for k := e - 1; k <= e+1; k++ {
		for _, m := range []float64{1, 2, 5} {
			r := m * math.Pow(10, k)
			// Round away the float noise of the power so that rungs print exactly.
			r = roundSig(r)
			switch {
			case up && r > v*(1+eps) && (math.IsNaN(best) || r < best):
				best = r
			case !up && r < v*(1-eps) && (math.IsNaN(best) || r > best):
				best = r
			}
		}
	}
	return best
}

// roundSig rounds v to 12 significant digits.
func roundSig(v float64) float64 {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return v
	}
	p := math.Pow(10, 11-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// unitLeast is the least positive rung a fraction steps to: below it, down goes to 0.
const unitLeast = 0.001

// unitStep moves a fraction in [0, 1] one rung along the 1-2-5 ladder, so that the step scales
// with the value (0.01 goes to 0.005, 0.5 to 0.2): up from 0 to unitLeast, down from unitLeast
// to 0, never past 0 or 1, which are refused.
func unitStep(v float64, up bool) (float64, error) {
	switch {
	case up && v >= 1:
		return 0, errors.New("already the most, 1")
	case !up && v <= 0:
		return 0, errors.New("already the least, 0")
	case up && v < unitLeast:
		return unitLeast, nil
	case !up && v <= unitLeast:
		return 0, nil
	case up:
		return math.Min(ladderStep(v, true), 1), nil
	}
	return ladderStep(v, false), nil
}

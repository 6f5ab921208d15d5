package ui

import "charm.land/bubbles/v2/key"

// keyMap holds the console's global keys.
type keyMap struct {
	Pause, Penalty, Explore, Task, Ablation, Save, Export, Help, Quit key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Pause:    key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause/resume")),
		Penalty:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "critic penalty on/off")),
		Explore:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "exploration on/off")),
		Task:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "switch task and size")),
		Ablation: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "ablation view")),
		Save:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save a checkpoint")),
		Export:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export curves (CSV, PNG)")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit (checkpoints)")),
	}
}

// helpKeys gathers every component's keys for bubbles/help.
type helpKeys struct {
	global keyMap
	params paramKeys
	sample sampleKeys
}

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

// FullHelp implements help.KeyMap: training controls, views, the panel, the program.
func (h helpKeys) FullHelp() [][]key.Binding {
	g, p, s := h.global, h.params, h.sample
	return [][]key.Binding{
		{g.Pause, g.Penalty, g.Explore, g.Save, g.Task},
		{s.Prev, s.Next, s.Optimal, g.Ablation, g.Export},
		{p.Up, p.Down, p.Inc, p.Dec, p.Edit, p.Cancel},
		{g.Help, g.Quit},
	}
}

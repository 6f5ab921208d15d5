package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"spg-tui/ui/draw"
)

// continueRun continues a finished run in its directory for another stretch of steps, as
// tui --resume DIR --steps N would, off the UI goroutine; the continued run replaces it on
// screen, its history first.
func (m *model) continueRun() tea.Cmd {
	dir, steps := m.ctx.info.Dir, m.ctx.status.TotalSteps+m.stretch
	if m.resume == nil || dir == "" {
		m.fail("this console cannot continue the run: %s tui --resume %s --steps %d", Command, dir, steps)
		return nil
	}
	m.switching, m.starting = true, "continuing the run…"
	m.info("continuing the run to step %s…", draw.FmtInt(steps))
	old, resume := m.engine, m.resume
	return func() tea.Msg {
		stopAll(old, nil, stopTimeout) // ended: this waits until it has let go of the directory
		eng, err := resume(dir, steps)
		return switchedMsg{engine: eng, err: err, continued: true}
	}
}

// afterDone says what a finished run's keys do: continue it, or start another task.
func (m *model) afterDone() string {
	return "space continues it for " + draw.FmtInt(m.stretch) + " more steps, t starts another task"
}

// doneKeys are the footer's reminders for a finished run: continue it (space) or switch task
// (t), instead of pause and penalty, which it no longer has.
func (m *model) doneKeys() []key.Binding {
	cont := key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "continue +"+draw.FmtInt(m.stretch)+" steps"))
	task := key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "another task"))
	return []key.Binding{cont, task, hintSamples, hintAblation}
}

package ui

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// taskDialog asks for a new task and size (t), then for confirmation before the current run is
// checkpointed and stopped and the new one started.
type taskDialog struct {
	input      textinput.Model
	confirming bool
	cfg        run.Config // the new run's configuration, once typed
	dir        string
	length     []string // what the new run will take, told before it starts
	err        string
}

func (m *model) openTaskDialog() {
	in := textinput.New()
	in.Prompt = "task, size and recipe: "
	in.CharLimit = 24
	// The current task is the placeholder, not the value: typing replaces it (as a prefilled
	// value, "tsp 20 best" typed after it read "mwm 10 besttsp 20 best"), and an empty Enter
	// takes it.
	in.Placeholder = fmt.Sprintf("%s %d %s", m.ctx.cfg.Task, m.ctx.cfg.N, m.ctx.cfg.Recipe)
	in.SetWidth(in.CharLimit) // with no width, bubbles draws one rune of the placeholder
	in.Focus()
	m.dialog = &taskDialog{input: in}
}

// parseTask reads "mwm 20", "tsp20" or "sort-50", optionally followed by a recipe name
// ("mwm 20 best"); recipe is "" when none is given.
func parseTask(s string) (task envs.Task, n int, recipe string, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return "", 0, "", fmt.Errorf("%q: want a task and a size, e.g. tsp 20", s)
	}
	task = envs.Task(strings.Trim(s[:i], " -"))
	size, rest, _ := strings.Cut(strings.TrimSpace(s[i:]), " ")
	if n, err = strconv.Atoi(size); err != nil {
		return "", 0, "", fmt.Errorf("%q: the size is not a whole number", size)
	}
	return task, n, strings.TrimSpace(rest), nil
}

func (m *model) dialogKey(k tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	switch k.String() {
	case "esc":
		m.dialog = nil
		m.info("task switch cancelled")
		return nil
	case "n":
		if d.confirming {
			m.dialog = nil
			m.info("task switch cancelled")
			return nil
		}
	case "y", "enter":
		if d.confirming {
			m.dialog = nil
			return m.switchTo(d.cfg, d.dir)
		}
		if k.String() == "y" {
			break
		}
		typed := d.input.Value()
		if strings.TrimSpace(typed) == "" {
			typed = d.input.Placeholder
		}
		task, n, recipe, err := parseTask(typed)
		if err == nil {
			d.cfg, err = switchConfig(m.ctx.cfg, task, n, recipe)
		}
		if err != nil {
			d.err = err.Error()
			return nil
		}
		d.err = ""
		d.dir = filepath.Join(m.baseDir, runName(d.cfg.Task, d.cfg.N, time.Now()))
		d.length = runLength(d.cfg, m.ctx.cfg, m.ctx.status)
		d.confirming = true
		return nil
	}
	return d.update(k)
}

func (d *taskDialog) update(msg tea.Msg) tea.Cmd {
	if d.confirming {
		return nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}

// runName is a fresh run directory name: mwm10-20060102-150405.
func runName(task envs.Task, n int, t time.Time) string {
	return fmt.Sprintf("%s%d-%s", task, n, t.Format("20060102-150405"))
}

// switchTo checkpoints and stops the current run, then starts cfg in dir, off the UI goroutine.
func (m *model) switchTo(cfg run.Config, dir string) tea.Cmd {
	m.switching, m.starting = true, "switching task…"
	m.info("stopping the current run (checkpoint)…")
	old, start := m.engine, m.start
	return func() tea.Msg {
		stopAll(old, nil, stopTimeout)
		eng, err := start(cfg, dir)
		return switchedMsg{engine: eng, err: err}
	}
}

func (m *model) switched(msg switchedMsg) tea.Cmd {
	m.switching = false
	if m.quitting {
		// q came while the run was starting: stop it too.
		m.quitting = false
		if msg.engine != nil {
			m.attach(msg.engine)
		}
		return m.quit()
	}
	switch {
	case msg.err != nil && msg.continued:
		m.fail("could not continue the run: %v", msg.err)
		return nil
	case msg.err != nil:
		m.fail("could not start the new run: %v (the previous one is checkpointed: %s tui --resume %s)", msg.err, Command, m.ctx.info.Dir)
		return nil
	}
	m.attach(msg.engine)
	if msg.continued {
		m.info("continuing the run to step %s", draw.FmtInt(m.ctx.cfg.Steps))
		return nil // the same directory: the log stays where it is
	}
	m.stretch = m.ctx.cfg.Steps
	m.info("started %s in %s", m.ctx.info.Title, m.ctx.info.Dir)
	if m.logs != nil {
		// The new run's log goes with it, not into the first run's directory.
		if err := m.logs.moveTo(m.ctx.info.Dir); err != nil {
			m.fail("%v", err)
		}
	}
	return nil
}

func (d *taskDialog) view(st draw.Styles, w int) []string {
	if d.confirming {
		lines := []string{
			"Checkpoint and stop the current run, then start",
			fmt.Sprintf("%s-%d (%s) in %s?", d.cfg.Task, d.cfg.N, d.cfg.Recipe, d.dir),
			"",
		}
		for _, l := range d.length {
			lines = append(lines, st.Warn.Render(l))
		}
		return append(lines, "", st.Key.Render("y")+" start   "+st.Key.Render("n")+" cancel")
	}
	lines := []string{
		d.input.View(),
		st.Dim.Render(envs.TaskList() + ", a size, and a recipe (" + strings.Join(run.RecipeNames(), ", ") + "), e.g. tsp 20 best"),
	}
	if d.err != "" {
		lines = append(lines, st.Err.Render(d.err))
	}
	return append(lines, "", st.Key.Render("enter")+" continue   "+st.Key.Render("esc")+" cancel")
}

// runLength says how long the run cfg will take before it starts: its steps and epochs, the time
// at the current run's rate when that run trains the same task, size and model (another's rate
// says nothing of it), and the exact references it solves where they are slow (the validation
// set's beside training, the test set's after it).
func runLength(cfg, current run.Config, st run.Status) []string {
	steps := fmt.Sprintf("It trains %s steps (%.3g epochs)", draw.FmtInt(cfg.Steps), float64(cfg.Steps)/float64(cfg.StepsPerEpoch()))
	if same := cfg.Task == current.Task && cfg.N == current.N && cfg.Model == current.Model; same && st.StepsPerSec > 0 {
		steps += fmt.Sprintf(", about %s at this run's %.1f steps/s.", draw.FmtDur(time.Duration(float64(cfg.Steps)/st.StepsPerSec*float64(time.Second))), st.StepsPerSec)
	} else {
		steps += ": the header shows its ETA once it does."
	}
	lines := []string{steps}
	if f, err := envs.FactsOf(cfg.Task); err == nil && f.Quick != nil && f.Exact(cfg.N) != "" && f.Quick(cfg.N) != f.Exact(cfg.N) {
		lines = append(lines, "It trains at once, solving its validation set's exact references beside",
			fmt.Sprintf("(%s-%d: minutes; cached after); its test set's come after its last step.", f.Name, cfg.N))
	}
	return append(lines, "q stops it at any time, with a checkpoint.")
}

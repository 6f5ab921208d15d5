package ui

import (
	"errors"
	"fmt"
	"io"
	stdlog "log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"spg-tui/experiments"
	"spg-tui/run"
	"spg-tui/run/runlog"
	"spg-tui/ui/draw"
)

// LogFile is the console's log in the run directory; nothing is logged to the terminal while
// the console runs.
const LogFile = "console.log"

// Options say which run the console opens and where it draws. Exactly one of a new run
// (Config), Resume and View is opened: View wins over Resume, Resume over Config.
type Options struct {
	// Config is the run to start in Dir; an empty Dir is runs/<task><n>-<date>-<time>.
	Config run.Config
	Dir    string
	// Resume reopens the run in this directory from its last checkpoint; Steps > 0 replaces its
	// total.
	Resume string
	Steps  int
	// View opens the run in this directory read-only: its curves, scatter and samples are
	// replayed from metrics.jsonl. An experiment directory (spg-tui experiment) opens on its
	// curves across seeds with their bands, its first run replayed behind them.
	View string
	// Compare opens the compare view on these run and experiment directories (two runs or
	// more in all), read-only, following the live ones; the first run is replayed behind it.
	Compare []string

	// Input and Output are the terminal: os.Stdin and os.Stdout when nil.
	Input  io.Reader
	Output io.Writer
	// Env is the environment (os.Environ() when nil); NO_COLOR set to anything turns colour off.
	Env []string
	// Start and ResumeRun launch trainers (agent.StartRun and agent.ResumeRun on the command's
	// device in the program); the console builds no learner itself. Start is required unless View is set, ResumeRun
	// when Resume is; without ResumeRun a finished run cannot be continued from the console.
	Start     experiments.StartFunc
	ResumeRun func(dir string, steps int) (run.Engine, error)
	// Score scores the runs of an experiment preset started from the ablation view on its test
	// sets (the program's agent.LoadPolicy); without it presets cannot start.
	Score experiments.Scorer
	// Now is the clock naming new run directories (time.Now when nil).
	Now func() time.Time
}

// Run opens the run, shows the console until the user quits, and returns once the run is
// checkpointed and stopped (or after a few seconds if it does not stop).
func Run(opts Options) error {
	opts.defaults()
	if err := requireTerminal(opts.Input, opts.Output); err != nil {
		return err
	}
	cmp, err := opts.openCompare()
	if err != nil {
		return err
	}
	exp, expDir, err := opts.openExperiment()
	if err != nil {
		return err
	}
	eng, readOnly, err := opts.open()
	if err != nil {
		return err
	}
	m := newModel(eng, opts.Start, !noColor(opts.Env), readOnly)
	m.resume = opts.ResumeRun
	m.sys = newSysSampler()
	m.ablation.now = opts.Now
	m.ablation.score = opts.Score
	if exp != nil {
		m.showExperiment(*exp, expDir)
	}
	if cmp != nil {
		m.showCompare(cmp)
	}
	logs, restore, err := redirectLogs(eng.Info().Dir, readOnly)
	if err != nil {
		stopAll(eng, nil, stopTimeout)
		return err
	}
	defer restore()
	m.logs = logs
	_, err = tea.NewProgram(m, m.programOptions(opts)...).Run()
	stopAll(m.engine, m.ablation.runner, stopTimeout)
	if m.compare != nil {
		m.compare.close()
	}
	if err != nil && !errors.Is(err, tea.ErrInterrupted) && !errors.Is(err, tea.ErrProgramKilled) {
		return err
	}
	if !readOnly {
		fmt.Fprintln(opts.Output, farewell(m.engine.Info(), m.engine.Status()))
	}
	if err := m.engine.Err(); err != nil {
		return &RunError{Err: err}
	}
	return nil
}

// RunError is Run's error when the run it trained failed (a NaN, a checkpoint that could not be
// written), as opposed to one it could not open.
type RunError struct{ Err error }

func (e *RunError) Error() string { return e.Err.Error() }
func (e *RunError) Unwrap() error { return e.Err }

// farewell is what the terminal shows once the console has closed on a run it trained: where the
// run is and, unless it is done, how to continue it (as spg-tui train says), in the command the
// user ran (Command). A run stopped after its last step was still scoring its test set.
func farewell(info run.RunInfo, s run.Status) string {
	switch {
	case s.State == run.StateDone:
		return fmt.Sprintf("spg-tui: run done at step %s in %s", draw.FmtInt(s.Step), info.Dir)
	case s.TotalSteps > 0 && s.Step >= s.TotalSteps:
		return fmt.Sprintf("spg-tui: run stopped after its last step (%s) but before its test score, in %s; score it with: %s tui --resume %s",
			draw.FmtInt(s.Step), info.Dir, Command, info.Dir)
	}
	return fmt.Sprintf("spg-tui: run stopped at step %s of %s in %s; continue with: %s tui --resume %s",
		draw.FmtInt(s.Step), draw.FmtInt(s.TotalSteps), info.Dir, Command, info.Dir)
}

// requireTerminal refuses to start (and so to create a run directory) when the console's input
// or output is a file or a pipe: the console needs a terminal; headless runs use spg-tui train.
func requireTerminal(streams ...any) error {
	for _, s := range streams {
		if f, ok := s.(*os.File); ok && !term.IsTerminal(f.Fd()) {
			return fmt.Errorf("the console needs a terminal, but %s is not one (use %s train to train headless)", f.Name(), Command)
		}
	}
	return nil
}

func (o *Options) defaults() {
	if o.Input == nil {
		o.Input = os.Stdin
	}
	if o.Output == nil {
		o.Output = os.Stdout
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// openExperiment reads the experiment directory View names, if it is one, and points View at
// its first run, which the main view replays; it returns the experiment's results and
// directory, or nil when View is no experiment.
func (o *Options) openExperiment() (*experiments.Snapshot, string, error) {
	dir := o.View
	if dir == "" || !experiments.IsExperimentDir(dir) {
		return nil, "", nil
	}
	snap, first, err := experiments.ViewSnapshot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("view %s: %v", dir, err)
	}
	if first == "" {
		return nil, "", fmt.Errorf("view %s: no run of the experiment has started yet", dir)
	}
	o.View = first
	return &snap, dir, nil
}

// openCompare opens the runs of Compare, if it names two or more, and points View at the
// first of them, which the main view replays; one run or experiment is opened as View.
func (o *Options) openCompare() ([]*compareRun, error) {
	if len(o.Compare) == 0 {
		return nil, nil
	}
	runs, err := openCompareRuns(o.Compare)
	if err != nil {
		return nil, err
	}
	switch {
	case len(runs) == 0:
		return nil, fmt.Errorf("view %s: no run has started yet", strings.Join(o.Compare, " "))
	case len(runs) == 1 || len(o.Compare) == 1 && experiments.IsExperimentDir(o.Compare[0]):
		for _, r := range runs {
			r.eng.Stop()
		}
		o.View = o.Compare[0]
		return nil, nil
	}
	o.View = runs[0].eng.Info().Dir
	return runs, nil
}

// open starts, resumes or replays the run the options name.
func (o *Options) open() (eng run.Engine, readOnly bool, err error) {
	switch {
	case o.View != "":
		r, err := runlog.Open(o.View)
		return r, true, err
	case o.Resume != "":
		if o.ResumeRun == nil {
			return nil, false, errors.New("ui: no ResumeRun to reopen a run with")
		}
		eng, err = o.ResumeRun(o.Resume, o.Steps)
		return eng, false, err
	case o.Start == nil:
		return nil, false, errors.New("ui: no Start to train with")
	}
	dir := o.Dir
	if dir == "" {
		dir = filepath.Join("runs", runName(o.Config.Task, o.Config.N, o.Now()))
	}
	eng, err = o.Start(o.Config, dir)
	return eng, false, err
}

// programOptions wire the program to the terminal: at most 15 frames a second, and no colour
// under NO_COLOR.
func (m *model) programOptions(o Options) []tea.ProgramOption {
	opts := []tea.ProgramOption{tea.WithInput(o.Input), tea.WithOutput(o.Output),
		tea.WithEnvironment(o.Env), tea.WithFPS(15)}
	if !m.ctx.st.Color {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	return opts
}

// noColor reports whether NO_COLOR is set to a non-empty value (https://no-color.org).
func noColor(env []string) bool {
	for _, kv := range env {
		if len(kv) > len("NO_COLOR=") && kv[:len("NO_COLOR=")] == "NO_COLOR=" {
			return true
		}
	}
	return false
}

// consoleLog sends the standard loggers to the console.log of the run the console trains (nowhere
// for a read-only view), moving to the new run's directory on a task switch.
type consoleLog struct {
	f *os.File
}

// redirectLogs points the standard loggers at dir's console.log (nowhere for a read-only view)
// until the returned function restores them; log moves them to another run's directory.
func redirectLogs(dir string, readOnly bool) (*consoleLog, func(), error) {
	oldOut, oldFlags, oldSlog := stdlog.Writer(), stdlog.Flags(), slog.Default()
	l := &consoleLog{}
	if !readOnly && dir != "" {
		if err := l.moveTo(dir); err != nil {
			return nil, nil, err
		}
	} else {
		l.point(io.Discard)
	}
	stdlog.SetFlags(stdlog.LstdFlags | stdlog.Lmicroseconds)
	return l, func() {
		stdlog.SetOutput(oldOut)
		stdlog.SetFlags(oldFlags)
		slog.SetDefault(oldSlog)
		if l.f != nil {
			l.f.Close()
		}
	}, nil
}

// moveTo sends the loggers to dir's console.log, closing the one they wrote to before.
func (l *consoleLog) moveTo(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("console log: %v", err)
	}
	l.point(f)
	if l.f != nil {
		l.f.Close()
	}
	l.f = f
	return nil
}

func (l *consoleLog) point(w io.Writer) {
	stdlog.SetOutput(w)
	slog.SetDefault(slog.New(slog.NewTextHandler(w, nil)))
}

// Command is how the user runs this program, for the commands that messages suggest: "go run ."
// when it is go run's temporary build (spg-tui is then not on the PATH), else "spg-tui".
var Command = commandFor(os.Executable)

// commandFor names the program from where its executable is.
func commandFor(executable func() (string, error)) string {
	exe, err := executable()
	if err == nil && isGoRunBuild(exe) {
		return "go run ."
	}
	return "spg-tui"
}

// isGoRunBuild reports whether exe is where go run puts its build: a fresh one in
// $GOTMPDIR/go-buildN/bM/exe/, or since Go 1.24 the cached one, $GOCACHE/hh/<id>-d/, where id is
// the 64 hex digits of the build's output ID and hh their first two.
func isGoRunBuild(exe string) bool {
	dir := filepath.Dir(exe)
	if filepath.Base(dir) == "exe" && strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(dir))), "go-build") {
		return true
	}
	id, ok := strings.CutSuffix(filepath.Base(dir), "-d")
	return ok && len(id) == 64 && isHex(id) && filepath.Base(filepath.Dir(dir)) == id[:2]
}

// isHex reports whether s is lower-case hexadecimal digits, as the go command names its cache.
func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

package ui

import (
	"os"
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// Timing of the console.
const (
	// frameInterval is the tick: records are taken and the screen redrawn at most 15 times a
	// second.
	frameInterval = time.Second / 15
	// maxRecordsPerTick bounds the work of one tick; the rest waits in the engine's buffer.
	maxRecordsPerTick = 4096
	// stopTimeout bounds the wait for the trainers to checkpoint and stop when quitting, so
	// that q exits within 5 s.
	stopTimeout = 4 * time.Second
)

// Messages of the console.
type (
	tickMsg      time.Time
	quitReadyMsg struct{}
	switchedMsg  struct {
		engine run.Engine
		err    error
		// continued: the engine is the same run continued (continueRun), not a new one.
		continued bool
	}
	exportedMsg struct {
		files []string
		err   error
	}
)

// viewKind is what the body shows.
type viewKind int

const (
	viewMain viewKind = iota
	viewAblation
	viewCompare
)

// statusTimeout is how long the footer shows a message.
const statusTimeout = 6 * time.Second

// status is the footer's message and when it was given; routine is progress nobody asked for
// (a checkpoint written), which gives way to any other message.
type status struct {
	text    string
	err     bool
	routine bool
	at      time.Time
}

// model is the console's root: it owns the program context, routes keys to the components,
// polls the engine on every tick and lays the panes out.
type model struct {
	ctx     *programContext
	keys    keyMap
	engine  run.Engine
	start   experiments.StartFunc
	baseDir string // where new run directories go
	// resume reopens a run from its last checkpoint with a new total (agent.ResumeRun), nil
	// when the console cannot continue a finished run; stretch is the steps a continuation
	// adds: the run's length when the console opened it.
	resume  func(dir string, steps int) (run.Engine, error)
	stretch int

	header   *header
	reward   *rewardPane
	critic   *criticPane
	scatter  *scatterPane
	sample   *samplePane
	params   *paramsPane
	events   *eventsPane
	ablation *ablationView
	compare  *compareView // nil unless several runs are viewed
	dialog   *taskDialog
	help     help.Model

	pace          waitPace    // of the run's long preparation
	history       int         // records of the run's earlier sessions still to come, told nowhere but the panes
	logs          *consoleLog // where the standard loggers write; nil in tests
	sys           *sysSampler // takes the header's system figures; nil in tests
	view          viewKind
	showHelp      bool
	typedCount    int // a count typed before a cursor key, 0 when none is
	msg           status
	width, height int
	quitting      bool
	switching     bool
	starting      string // the footer's text while switching: which run starts
}

// newModel builds the console around a started engine. start launches new runs (task switches,
// ablations); baseDir is where their directories go.
func newModel(eng run.Engine, start experiments.StartFunc, color, readOnly bool) *model {
	ctx := &programContext{st: draw.NewStyles(color), readOnly: readOnly, smoothing: 0.6}
	m := &model{ctx: ctx, start: start, help: help.New()}
	m.keys = m.newKeyMap()
	m.help.Styles = helpStyles(ctx.st)
	m.attach(eng)
	m.stretch = m.ctx.cfg.Steps
	m.ablation = newAblationView(ctx, start, m.baseDir, m.pauseForAblation)
	return m
}

// attach makes eng the run the console shows, with fresh data and panes.
func (m *model) attach(eng run.Engine) {
	m.engine = eng
	m.ctx.info = eng.Info()
	m.ctx.cfg = eng.Config()
	m.ctx.model = run.ModelOf(m.ctx.cfg)
	m.ctx.facts = nil
	if f, err := envs.FactsOf(m.ctx.cfg.Task); err == nil {
		m.ctx.facts = f
	}
	m.ctx.status = eng.Status()
	m.history = m.ctx.info.History
	m.ctx.data = newRunData()
	m.ctx.cursor = stepCursor{}
	m.baseDir = "runs"
	if d := m.ctx.info.Dir; d != "" {
		m.baseDir = filepath.Dir(d)
	}
	base := paneBase{ctx: m.ctx}
	m.header = &header{paneBase: base}
	m.reward = &rewardPane{paneBase: base}
	m.critic = &criticPane{paneBase: base}
	m.scatter = &scatterPane{paneBase: base}
	m.sample = &samplePane{paneBase: base}
	sel := 0
	if m.params != nil {
		sel = m.params.sel
	}
	m.params = newParamsPane(m.ctx, m.apply)
	m.params.sel = sel
	m.events = &eventsPane{paneBase: base}
	m.resize()
}

func tick() tea.Cmd {
	return tea.Tick(frameInterval, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Init implements tea.Model.
func (m *model) Init() tea.Cmd { return tick() }

// tailer is an engine that reads its records from a file when asked (a --view of a run),
// rather than buffering them in Records; Writer is the PID of the process training the run, 0
// when none does.
type tailer interface {
	Tail(max int, fn func(run.Record)) (restart bool, err error)
	Writer() int
}

// poll takes the records the engine has buffered (or written, for a view) and its status; it
// never waits.
func (m *model) poll() {
	if t, ok := m.engine.(tailer); ok {
		restart, err := t.Tail(maxRecordsPerTick, m.observe)
		if err != nil {
			m.fail("%v", err) // the error names the file
		}
		if restart {
			m.ctx.data = m.ctx.data.restarted()
			m.ctx.cursor = stepCursor{}
			m.info("the run was resumed from a checkpoint: reading it again")
		}
		m.ctx.writer = t.Writer()
	} else {
		run.Drain(m.engine.Records(), maxRecordsPerTick, m.observe)
	}
	m.ctx.status = m.engine.Status()
	m.ctx.waitLeft = m.pace.left(m.ctx.status.Wait, time.Now())
	if m.sys != nil {
		m.ctx.sys = m.sys.sample(time.Now(), m.measured(), m.ctx.info.Dir)
	}
	if !m.msg.at.IsZero() && time.Since(m.msg.at) > statusTimeout && !m.quitting {
		m.msg = status{}
	}
	m.ctx.cfg = m.engine.Config()
	if m.compare != nil {
		if err := m.compare.poll(); err != nil {
			m.fail("%v", err)
		}
	}
	if m.ablation.poll() {
		m.info("ablation ended: %d of %d runs in %s", m.ablation.snap.Finished, m.ablation.snap.Total, filepath.Base(m.ablation.dir))
	}
}

// measured is the process whose CPU and memory the header tells: the one training a viewed
// run, this one when it trains the run, none for a view of a run nobody trains.
func (m *model) measured() int {
	switch {
	case m.ctx.writer > 0:
		return m.ctx.writer
	case !m.ctx.readOnly:
		return os.Getpid()
	}
	return 0
}

// observe takes one record, reporting the events that answer a key press in the footer. A
// run's history, which a resumed run sends first, is not retold there ("training done at step
// 40" while the continued run trains on), nor is what a view of a run nobody trains reads
// ("training done" on opening a finished run, or in the compare view over other runs).
func (m *model) observe(r run.Record) {
	m.ctx.data.add(r)
	if m.history > 0 {
		m.history--
		return
	}
	if r.Event == nil || r.Kind != run.KindEvent || m.ctx.readOnly && m.ctx.writer == 0 {
		return
	}
	switch r.Event.Event {
	case run.EventSet:
		delete(m.params.pending, r.Param)
	case run.EventCheckpoint:
		m.note("checkpoint written at step %s", draw.FmtInt(r.Step))
	case run.EventError:
		m.fail("training stopped: %s", r.Message)
	case run.EventDone:
		m.info("training done at step %s", draw.FmtInt(r.Step))
	}
}

// resize lays the panes out for the current screen.
func (m *model) resize() {
	l := computeLayout(m.width, m.height)
	m.header.SetSize(m.width, headerLines)
	m.reward.SetSize(l.reward.w, l.reward.h)
	m.critic.SetSize(l.critic.w, l.critic.h)
	m.scatter.SetSize(l.scatter.w, l.scatter.h)
	m.sample.SetSize(l.sample.w, l.sample.h)
	m.params.SetSize(l.params.w, l.params.h)
	m.events.SetSize(l.events.w, l.events.h)
	if m.ablation != nil {
		m.ablation.SetSize(l.body.w, l.body.h)
	}
	if m.compare != nil {
		m.compare.SetSize(l.body.w, l.body.h)
	}
	m.help.SetWidth(m.width)
}

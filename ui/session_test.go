package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
	"spg-tui/ui/draw"
	"spg-tui/ui/export"
)

func TestQuit(t *testing.T) {
	m, e := liveModel(t, 120, 36)
	until(t, m, "training", func() bool { return m.ctx.status.Step > 0 })
	start := time.Now()
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil || !m.quitting {
		t.Fatal("q did not start quitting")
	}
	if msg := cmd(); msg != (quitReadyMsg{}) {
		t.Fatalf("quit command returned %T", msg)
	}
	if _, cmd := m.Update(quitReadyMsg{}); cmd == nil || cmd() != tea.Quit() {
		t.Error("quitReadyMsg does not quit")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("quitting took %v", d)
	}
	select {
	case <-e.Done():
	default:
		t.Fatal("the engine still runs")
	}
	if _, err := os.Stat(filepath.Join(e.Info().Dir, "checkpoints", "last")); err != nil {
		t.Error(err)
	}
	// Keys are ignored while quitting, except a second ctrl+c.
	press(m, "p")
	if _, cmd := m.Update(keyMsg("ctrl+c")); cmd == nil || cmd() != tea.Quit() {
		t.Error("a second ctrl+c does not quit at once")
	}
}

func TestTaskSwitch(t *testing.T) {
	m, old := liveModel(t, 120, 36)
	press(m, "t")
	if m.dialog == nil {
		t.Fatal("t did not open the dialog")
	}
	for range 24 {
		press(m, "backspace")
	}
	for _, k := range "foo 3" {
		press(m, string(k))
	}
	press(m, "enter")
	if m.dialog.confirming || !strings.Contains(screen(m), "unknown task") {
		t.Fatalf("foo 3 accepted:\n%s", screen(m))
	}
	for range 5 {
		press(m, "backspace")
	}
	for _, k := range "tsp 7" {
		press(m, string(k))
	}
	press(m, "enter")
	if !m.dialog.confirming || !strings.Contains(screen(m), "tsp-7") {
		t.Fatalf("tsp 7 not offered:\n%s", screen(m))
	}
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y did not switch")
	}
	m.Update(cmd())
	t.Cleanup(func() { m.engine.Stop(); <-m.engine.Done() })
	select {
	case <-old.Done():
	default:
		t.Error("the old run was not stopped")
	}
	if _, err := os.Stat(filepath.Join(old.Info().Dir, "checkpoints", "last")); err != nil {
		t.Errorf("the old run was not checkpointed: %v", err)
	}
	if c := m.engine.Config(); c.Task != envs.TaskTSP || c.N != 7 || !strings.Contains(m.ctx.info.Title, "TSP-7") {
		t.Errorf("new run %s-%d %q", c.Task, c.N, m.ctx.info.Title)
	}
	if c := m.engine.Config(); c.Steps != run.DefaultEpochs(envs.TaskTSP)*c.StepsPerEpoch() {
		t.Errorf("new tsp run has %d steps, want the authors' %d epochs of %d", c.Steps, run.DefaultEpochs(envs.TaskTSP), c.StepsPerEpoch())
	}
	if len(m.ctx.data.train.step) != 0 && m.ctx.data.train.step[0] > 50 {
		t.Error("the new run shows the old run's data")
	}
	// Cancelling leaves the run alone.
	press(m, "t", "esc")
	if m.dialog != nil {
		t.Error("esc did not close the dialog")
	}
}

func TestReadOnlyView(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskMWM, 6)
	e, recs := runScripted(t, cfg, dir)
	_ = e
	// The scripted engine writes metrics.jsonl but not config.json.
	if err := os.WriteFile(filepath.Join(dir, run.ConfigFile), []byte(`{"task":"mwm","n":6,"seed":1,"steps":400,"batch":10,"train_size":1000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := runlog.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(r, enginetest.Start, false, true)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	m.poll()
	if got := len(m.ctx.data.train.step); got != 40 {
		t.Errorf("replayed %d training summaries, want 40 (of %d records)", got, len(recs))
	}
	if m.ctx.status.State != run.StateDone || m.ctx.status.Step != 400 {
		t.Errorf("replay status %+v", m.ctx.status)
	}
	sc := screen(m)
	for _, want := range []string{"viewing, read-only", "Parameters (read-only)", "r = ", "1/4"} {
		if !strings.Contains(sc, want) {
			t.Errorf("view lacks %q:\n%s", want, sc)
		}
	}
	// The keys that would change the run are not offered: the footer does not show them, and
	// pressing them, or + on a parameter of the run, is refused with a message that names the key.
	for _, hint := range []string{"pause", "penalty", "tune"} {
		if strings.Contains(m.footer(), hint) {
			t.Errorf("the read-only footer offers %q: %s", hint, m.footer())
		}
	}
	for _, k := range []string{"p", "space", "s", "t", "x"} {
		m.msg = status{}
		press(m, k)
		if !m.msg.err || m.dialog != nil || !strings.HasPrefix(m.msg.text, "read-only view: "+k+" (") {
			t.Errorf("%s in a read-only view answered %+v", k, m.msg)
		}
	}
	m.msg = status{}
	press(m, "+")
	if !m.msg.err || !strings.Contains(m.msg.text, "read-only") {
		t.Errorf("+ in a read-only view: %+v", m.msg)
	}
}

func TestExport(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	m.ctx.info.Dir = t.TempDir()
	_, cmd := m.Update(keyMsg("e"))
	if cmd == nil {
		t.Fatal("e returned no command")
	}
	msg := cmd().(exportedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	m.Update(msg)
	if len(msg.files) != 10 || !strings.Contains(m.msg.text, "exported 10 files") {
		t.Errorf("files %v, message %q", msg.files, m.msg.text)
	}
	for _, f := range msg.files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(export.Dir(msg.files), "train.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	d := m.ctx.data
	if len(lines) != len(d.train.step)+1 || lines[0] != "step,wall,reward,reward_ema,critic_loss,critic_hard,critic_penalty" {
		t.Fatalf("train.csv: %d lines, header %q", len(lines), lines[0])
	}
	if want := fmtCSV(d.train.step[3], d.train.wall[3], d.train.get("reward_mean")[3]); !strings.HasPrefix(lines[4], want) {
		t.Errorf("row 4 = %q, want prefix %q", lines[4], want)
	}
}

func fmtCSV(v ...float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = ftoa(x)
	}
	return strings.Join(s, ",")
}

func TestNoColor(t *testing.T) {
	for env, want := range map[string]bool{"NO_COLOR=1": true, "NO_COLOR=yes": true, "NO_COLOR=": false, "TERM=xterm": false} {
		if got := noColor([]string{"HOME=/", env}); got != want {
			t.Errorf("noColor(%q) = %v", env, got)
		}
	}
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	out := m.render()
	for _, sgr := range []string{"\x1b[3", "38;5;", "\x1b[9"} {
		if strings.Contains(out, sgr) {
			t.Errorf("colour sequence %q without colour", sgr)
		}
	}
	m.ctx.st = draw.NewStyles(true)
	m.ctx.displayVer++
	m.reward.cache.valid = false
	if out := m.reward.View(); !strings.Contains(out, "38;5;") {
		t.Error("no colour with colour on")
	}
}

func TestLayoutFits(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	for _, size := range [][2]int{{80, 24}, {100, 30}, {109, 40}, {110, 30}, {120, 36}, {200, 60}, {79, 40}, {40, 10}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(screen(m), "\n")
		if len(lines) != size[1] {
			t.Errorf("%v: %d lines", size, len(lines))
		}
		for i, l := range lines {
			if w := len([]rune(l)); w != size[0] {
				t.Errorf("%v: line %d is %d wide: %q", size, i, w, l)
				break
			}
		}
	}
}

func TestViewCache(t *testing.T) {
	var c viewCache
	calls := 0
	draw := func() string { calls++; return "x" }
	k := renderKey{v: [4]int{1}, w: 10, h: 5}
	c.get(k, draw)
	c.get(k, draw)
	if calls != 1 {
		t.Errorf("%d draws for one key", calls)
	}
	k.v[0]++
	c.get(k, draw)
	k.w++
	c.get(k, draw)
	if calls != 3 {
		t.Errorf("%d draws after two changes, want 3", calls)
	}
	// A pane redraws when its data moves, and only then.
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	before := m.reward.View()
	key := m.reward.cache.key
	m.header.View()
	if m.reward.View(); m.reward.cache.key != key {
		t.Error("the reward pane redrew without new data")
	}
	m.observe(run.Record{Kind: run.KindTrain, Step: 800, Train: &run.Train{RewardMean: 0.9}})
	if m.reward.View() == before {
		t.Error("the reward pane did not redraw with new data")
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func TestQuitWhileSwitching(t *testing.T) {
	m, _ := liveModel(t, 120, 36)
	press(m, "t", "enter")
	_, cmd := m.Update(keyMsg("y"))
	if !m.switching {
		t.Fatal("not switching")
	}
	if _, q := m.Update(keyMsg("q")); q != nil {
		t.Error("q quit before the new run had started")
	}
	_, cmd = m.Update(cmd())
	if cmd == nil {
		t.Fatal("the new run was not stopped")
	}
	if msg := cmd(); msg != (quitReadyMsg{}) {
		t.Fatalf("got %T", msg)
	}
	select {
	case <-m.engine.Done():
	default:
		t.Error("the new run still trains")
	}
}

// TestTaskSwitchTakesTheTaskDefaultData checks that switching a best run from mwm to sort (no
// recipe change) trains best's sort learner, on sort's default data, not the mwm run's model
// and spec.
func TestTaskSwitchTakesTheTaskDefaultData(t *testing.T) {
	cfg, err := run.WithRecipe(tinyConfig(envs.TaskMWM, 6), run.RecipeBest)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Steps = 1_000_000
	e, err := enginetest.New(cfg, t.TempDir(), enginetest.Options{StepDelay: time.Millisecond, Buffer: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop(); <-e.Done() })
	m := newTestModel(e, 120, 36)
	press(m, "t")
	for range 24 {
		press(m, "backspace")
	}
	for _, k := range "sort 6" {
		press(m, string(k))
	}
	press(m, "enter")
	if m.dialog == nil || !m.dialog.confirming {
		t.Fatalf("sort 6 not offered:\n%s", screen(m))
	}
	want, err := run.WithRecipe(run.DefaultConfig(envs.TaskSort, 6), run.RecipeBest)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.dialog.cfg; c.Model != want.Model || c.Rounding != want.Rounding || c.EpsStart != want.EpsStart || c.Data != envs.DefaultData(envs.TaskSort) {
		t.Errorf("the switch to sort trains %s (rounding %q, epsilon %g) on data %q, want best's %s (%q, %g) on %q",
			c.Model, c.Rounding, c.EpsStart, c.Data, want.Model, want.Rounding, want.EpsStart, envs.DefaultData(envs.TaskSort))
	}
}

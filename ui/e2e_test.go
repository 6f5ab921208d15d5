package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"spg-tui/agent"
	"spg-tui/envs"
	"spg-tui/run"
)

// realConfig is a real training run small enough for a test: MWM-5 on a tiny network and
// datasets.
func realConfig() run.Config {
	c := run.DefaultConfig(envs.TaskMWM, 5)
	c.Batch, c.Buffer, c.TrainSize, c.ValSize, c.TestSize = 8, 256, 800, 20, 20
	c.Hidden, c.LogEvery, c.EvalEvery, c.Steps = 16, 10, 200, 1_000_000
	return c
}

// probeMsg asks the running program for its screen; the filter answers it on the program's
// goroutine, so the test reads the model without racing it.
type probeMsg chan string

func probeFilter(m tea.Model, msg tea.Msg) tea.Msg {
	if p, ok := msg.(probeMsg); ok {
		p <- screen(m.(*model))
		return nil
	}
	return msg
}

func probe(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	ch := make(probeMsg, 1)
	tm.Send(ch)
	select {
	case s := <-ch:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("the program did not answer")
	}
	return ""
}

// waitScreen probes until cond holds on the screen.
func waitScreen(t *testing.T, tm *teatest.TestModel, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := probe(t, tm)
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s:\n%s", what, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var stepRE = regexp.MustCompile(`step ([0-9,]+)/`)

// headerStep is the step counter of the header.
func headerStep(s string) int {
	m := stepRE.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n
}

// startOnCPU is the program's Start, agent.StartRun on --device cpu.
func startOnCPU(cfg run.Config, dir string) (run.Engine, error) { return agent.StartRun(cfg, dir, nil) }

// TestEndToEnd drives the console around a real (tiny) training run: the step counter
// advances, p switches the critic penalty off in the trainer, and q exits within 5 s with a
// checkpoint written.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a network")
	}
	dir := filepath.Join(t.TempDir(), "run")
	eng, err := agent.StartRun(realConfig(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(eng, startOnCPU, false, false)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36),
		teatest.WithProgramOptions(tea.WithFilter(probeFilter)))

	s := waitScreen(t, tm, "training", func(s string) bool { return headerStep(s) > 0 })
	first := headerStep(s)
	s = waitScreen(t, tm, "the step counter to advance", func(s string) bool { return headerStep(s) > first })
	if !strings.Contains(s, "● training") {
		t.Errorf("state not shown:\n%s", s)
	}

	tm.Type("p")
	waitScreen(t, tm, "the penalty switched off", func(s string) bool {
		return regexp.MustCompile(`critic penalty\s+off`).MatchString(s)
	})
	if eng.Config().CriticPenalty {
		t.Error("the trainer still has the critic penalty on")
	}
	waitScreen(t, tm, "the change marked", func(s string) bool { return strings.Contains(s, "▲") })

	start := time.Now()
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("q took %v", d)
	}
	select {
	case <-eng.Done():
	default:
		t.Fatal("the trainer still runs after q")
	}
	if st := eng.Status(); st.State != run.StateStopped {
		t.Errorf("trainer state %v after q", st.State)
	}
	if _, err := os.Stat(filepath.Join(dir, run.LastCheckpoint)); err != nil {
		t.Errorf("no checkpoint after q: %v", err)
	}
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	logged := false
	for _, r := range recs {
		if r.Event != nil && r.Event.Event == run.EventSet && r.Param == run.FlagCriticPenalty && r.New == 0 {
			logged = true
		}
	}
	if !logged {
		t.Error("the penalty switch is not in metrics.jsonl")
	}
}

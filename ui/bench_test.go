package ui

import (
	"io"
	"path/filepath"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"spg-tui/agent"
	"spg-tui/envs"
	"spg-tui/run"
)

// benchConfig is a short MWM-10 run with the paper's network, on small datasets.
func benchConfig() run.Config {
	c := run.DefaultConfig(envs.TaskMWM, 10)
	c.Batch, c.Buffer, c.TrainSize, c.ValSize, c.TestSize = 64, 20_000, 20_000, 100, 100
	c.LogEvery, c.EvalEvery, c.Steps = 10, 100, 300
	return c
}

// trainRate runs benchConfig in dir, with the console open (rendering at 15 Hz into
// io.Discard at 120×36, in colour) or headless, and returns its training steps per second:
// steps over training time, as the run's last record reports them (set-up excluded).
func trainRate(b *testing.B, dir string, console bool) float64 {
	eng, err := agent.StartRun(benchConfig(), dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	if console {
		m := newModel(eng, startOnCPU, true, false)
		p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignals(),
			tea.WithWindowSize(120, 36), tea.WithFPS(15), tea.WithColorProfile(colorprofile.ANSI256))
		go func() { <-eng.Done(); p.Quit() }()
		if _, err := p.Run(); err != nil {
			b.Fatal(err)
		}
	}
	<-eng.Done()
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		b.Fatal(err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		if r := recs[i]; r.Kind == run.KindTrain && r.Wall > 0 {
			return float64(r.Step) / r.Wall
		}
	}
	b.Fatal("no training summary")
	return 0
}

// BenchmarkConsoleOverhead trains the same short run headless and with the console open, in
// alternating order, and reports both rates and the console's cost in percent of the headless
// rate (the target is at most 5%). Each iteration is two runs of about 20 s on two cores.
func BenchmarkConsoleOverhead(b *testing.B) {
	var headless, console float64
	for i := range b.N {
		base := filepath.Join(b.TempDir(), strconv.Itoa(i))
		for k := range 2 {
			if (i+k)%2 == 0 {
				headless += trainRate(b, base+"-headless", false)
			} else {
				console += trainRate(b, base+"-console", true)
			}
		}
	}
	b.ReportMetric(headless/float64(b.N), "headless_steps/s")
	b.ReportMetric(console/float64(b.N), "console_steps/s")
	b.ReportMetric(100*(1-console/headless), "overhead_%")
}

// BenchmarkRender is one full redraw of the 120×36 screen with every cache invalidated, the
// worst case of a frame.
func BenchmarkRender(b *testing.B) {
	m := fixtureB(b)
	b.ReportAllocs()
	for b.Loop() {
		m.ctx.displayVer++
		m.ctx.data.trainVer++
		m.ctx.data.evalVer++
		_ = m.render()
	}
}

// BenchmarkFrame is a frame when nothing changed: every pane comes from its cache.
func BenchmarkFrame(b *testing.B) {
	m := fixtureB(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.render()
	}
}

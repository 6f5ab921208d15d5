package experiments

import (
	"strings"
	"sync"
	"testing"
	"time"

	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// syncBuilder is a strings.Builder safe for the runner's goroutines.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgressSpeaksEarly: the first progress line comes within seconds of the start, not after
// the whole report period (nothing printed for about 40 s after the plan line), and a finished
// run's line names its arm and seed before its directory's configuration hash.
func TestProgressSpeaksEarly(t *testing.T) {
	var out syncBuilder
	slow := func(c run.Config, dir string) (run.Engine, error) {
		return enginetest.New(c, dir, enginetest.Options{StepDelay: 100 * time.Millisecond})
	}
	pr, err := Prepare(tinyOptions("penalty", 1), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	mc := Machine{Start: slow, Score: fakeScore, Jobs: 2, Progress: &out, Every: time.Hour}
	if err := pr.Run(mc); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < waitReportEvery+time.Second {
		t.Skipf("the runs took %v, too short to tell an early line from the last", d)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.Contains(lines[0], "runs done") {
		t.Errorf("the first line is not a progress line: %q", lines)
	}
	for _, a := range pr.Preset.Arms {
		if !strings.Contains(out.String(), "experiment penalty: "+a.Label+" seed 1 (") {
			t.Errorf("no line names arm %q and its seed:\n%s", a.Label, out.String())
		}
	}
}

package benchcmd_test

import (
	"bytes"
	"encoding/json"
	"testing"

	benchcmd "spg-tui/cmd/bench"
	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/internal/flagparse"
)

// TestBenchParsesItsCommandLineOnce: bench resolves the run it times from its parsed options
// (run.Choose), not by writing them back into training flags for another flag set to parse (it
// did: two parses of one command line).
func TestBenchParsesItsCommandLineOnce(t *testing.T) {
	var out, errb bytes.Buffer
	before := flagparse.Count()
	status := benchcmd.Main([]string{"--task", "sort", "--n", "4", "--batch", "2", "--steps", "1", "--recipe", "best", "--device", "cpu"},
		cmdutil.Streams{Out: &out, Err: &errb})
	if status != 0 {
		t.Fatalf("status %d: %s", status, errb.String())
	}
	if n := flagparse.Count() - before; n != 1 {
		t.Errorf("one command line parsed %d times", n)
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Errorf("output %q: %v", out.String(), err)
	}
}

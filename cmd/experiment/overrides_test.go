package experimentcmd

import (
	"io"
	"reflect"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/experiments"
)

// TestOverridesReadBackAsParsed: the training flags a preset is given reach its runs typed, as
// parsed, and the words its manifest records of them read back (a merge, a report, the console's
// view) to the same runs.
func TestOverridesReadBackAsParsed(t *testing.T) {
	var o Options
	args := []string{"--seeds", "2", "--scale", "0.01", "--batch", "4", "--buffer-mem", "64M", "--tau", "0.25",
		"--critic-updates", "2", "--no-exploration", "--init", "", "--recipe", "paper", "--lr-decay-every", "70"}
	if status, ok := cmdutil.Parse(NewFlags("penalty", &o, io.Discard), args, cmdutil.Streams{Out: io.Discard, Err: io.Discard}); !ok {
		t.Fatalf("status %d", status)
	}
	parsed, err := o.options()
	if err != nil {
		t.Fatal(err)
	}
	_, runs, err := experiments.Expand(parsed)
	if err != nil {
		t.Fatal(err)
	}
	read := parsed
	if read.Overrides, err = experiments.ReadOverrides(parsed.Overrides.Text); err != nil {
		t.Fatal(err)
	}
	_, again, err := experiments.Expand(read)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(runs, again) {
		t.Errorf("parsed:\n%+v\nread back:\n%+v", runs, again)
	}
	for _, r := range runs {
		if c := r.Config; c.Batch != 4 || c.BufferMem != 64<<20 || c.Tau != 0.25 || c.CriticUpdates != 2 || c.Exploration || c.LRDecayEvery != 70 {
			t.Errorf("%s: %+v", r.ID, c)
		}
	}
}

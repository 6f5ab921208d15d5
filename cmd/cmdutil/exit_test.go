package cmdutil_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/run"
)

// TestRunErrorStatus: a directory in use, a file refused as not what it should be and bad input
// are exit 2, an I/O error exit 1 (every start error used to be 2).
func TestRunErrorStatus(t *testing.T) {
	_, isDir := os.ReadFile(t.TempDir())
	_, missing := os.ReadFile(filepath.Join(t.TempDir(), "none"))
	_, refused := run.OpenRegular(t.TempDir(), 1<<20)
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&run.DirLockedError{Dir: "d", PID: 7}, cmdutil.ExitUsage},
		{fmt.Errorf("resuming: %w", isDir), cmdutil.ExitFailed},
		{missing, cmdutil.ExitUsage},
		{fmt.Errorf("resuming: %w", refused), cmdutil.ExitUsage},
		{errors.New("tau 0: must be in [0.0001, 10000]"), cmdutil.ExitUsage},
	} {
		if got := cmdutil.RunErrorStatus(tc.err); got != tc.want {
			t.Errorf("%v: status %d, want %d", tc.err, got, tc.want)
		}
	}
}

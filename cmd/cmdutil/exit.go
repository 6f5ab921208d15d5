package cmdutil

import (
	"errors"
	"io/fs"
	"syscall"

	"spg-tui/run"
)

// Exit statuses (README's conventions).
const (
	// ExitFailed is the exit status of a training run that failed after it started, and of an
	// I/O error.
	ExitFailed = 1
	// ExitUsage is the exit status for bad flags and bad input files.
	ExitUsage = 2
	// ExitStdoutClosed ends a run whose standard output was closed (train --json | head): 128 +
	// SIGPIPE, what a shell expects of a pipeline member that lost its reader.
	ExitStdoutClosed = 128 + int(syscall.SIGPIPE)
)

// RunErrorStatus is the exit status of an error that prevented a run from starting: 2 for bad
// input (flags, a run directory in use, of another run or damaged: a file in it refused as not
// regular or past its bound), 1 for a failure to read or write files that exist (an I/O error
// is not the user's input).
func RunErrorStatus(err error) int {
	var locked *run.DirLockedError
	var refused *run.RefusedFileError
	if errors.As(err, &locked) || errors.As(err, &refused) {
		return ExitUsage
	}
	var pathErr *fs.PathError
	var errno syscall.Errno
	if !errors.Is(err, fs.ErrNotExist) && (errors.As(err, &pathErr) || errors.As(err, &errno)) {
		return ExitFailed
	}
	return ExitUsage
}

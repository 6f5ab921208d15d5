package cmdutil

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"spg-tui/cmd/internal/flagparse"
)

// Streams are a command's standard input, output and error.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// NewFlags returns a flag set that reports errors as one line (via Parse) instead of printing
// the whole usage.
func NewFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: spg-tui %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args, the one parse of a command line; it returns ok=false with the exit status
// when the command should stop (help was asked for, or a flag was bad).
func Parse(fs *flag.FlagSet, args []string, s Streams) (status int, ok bool) {
	err := flagparse.Parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(s.Out)
		fs.Usage()
		return 0, false
	}
	err = flagError(fs, err)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(s.Err, "spg-tui %s: %v (see spg-tui %s --help)\n", fs.Name(), err, fs.Name())
		return ExitUsage, false
	}
	return 0, true
}

// Fail reports err, a refusal of cmd's input, in one line and returns the exit status of bad
// input.
func Fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "spg-tui %s: %v\n", cmd, err)
	return ExitUsage
}

// FailOutput reports an error met while writing the output: an I/O error (standard output
// that cannot be written) exits 1, a value refused on its way out (a non-finite objective) 2.
func FailOutput(stderr io.Writer, cmd string, err error) int {
	Fail(stderr, cmd, err)
	return RunErrorStatus(err)
}

// FailRun reports err, which kept a run from starting, and returns its exit status
// (RunErrorStatus).
func FailRun(stderr io.Writer, cmd string, err error) int {
	Fail(stderr, cmd, err)
	return RunErrorStatus(err)
}

// Given reports whether the command line set the flag called name.
func Given(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

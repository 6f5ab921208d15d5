package cmdutil

import (
	"flag"

	"spg-tui/agent/checkpoint"
	"spg-tui/cmd/trainflags"
)

// ResumeSteps is the total that train's and tui's --resume ask of the run in dir: the one their
// --steps or --epochs give (counted in the run's own epochs), 0 to keep the run's.
func ResumeSteps(fs *flag.FlagSet, dir string) (int, error) {
	// Else reading DIR/config.json fails with ENOTDIR, an I/O error's exit status, or ENOENT.
	if err := NotRunDir("resume", dir); err != nil {
		return 0, err
	}
	start, err := checkpoint.ReadStartConfig(dir)
	if err != nil {
		return 0, err
	}
	return trainflags.ResumeFlags(fs, start, dir)
}

package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"spg-tui/run"
)

// NotRunDir says why dir, given to --flag, is no run directory, in the words tui --view uses
// ("--view DIR: not a run or experiment directory"): it does not exist, is a file, or has neither
// config.json nor checkpoints/last (which a run killed before writing config.json can resume
// from). It is nil for a run directory, and where only opening it can tell (a permission).
func NotRunDir(flag, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--%s %s: not a run directory (there is no such directory)", flag, dir)
	case err != nil:
		return nil
	case !fi.IsDir():
		return fmt.Errorf("--%s %s: not a run directory (it is a file)", flag, dir)
	}
	for _, name := range []string{run.ConfigFile, run.LastCheckpoint} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return fmt.Errorf("--%s %s: not a run directory (it has no %s)", flag, dir, run.ConfigFile)
}

// NoCheckpoint says why path, given to --flag as a checkpoint file or a run directory whose best
// checkpoint is meant (eval --checkpoint, --init), cannot be read as one: nothing is there, the
// directory is no run (NotRunDir), or no validation of the run has finished (one stopped while
// solving its references), in which case its last checkpoint, if any, is named. With lastDoes,
// a run with a last checkpoint and no best passes (eval reads the last and says so); a new run's
// --init wants parameters some validation chose, so it names the last instead of taking it. It
// is nil otherwise: opening the file tells the rest.
func NoCheckpoint(flag, path string, lastDoes bool) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--%s %s: no such checkpoint file or run directory", flag, path)
	case err != nil || !fi.IsDir():
		return nil
	}
	if err := NotRunDir(flag, path); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(path, run.BestCheckpoint)); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	last := filepath.Join(path, run.LastCheckpoint)
	if _, err := os.Stat(last); err == nil {
		if lastDoes {
			return nil
		}
		return fmt.Errorf("--%s %s: the run has no %s yet (no validation has finished); its latest parameters are --%s %s",
			flag, path, run.BestCheckpoint, flag, last)
	}
	return fmt.Errorf("--%s %s: the run has no %s yet (no validation has finished)", flag, path, run.BestCheckpoint)
}

// NoInit is noCheckpoint for the --init of cfg, a new run's resolved configuration, if it has one.
func NoInit(cfg run.Config) error {
	if cfg.Init == "" {
		return nil
	}
	return NoCheckpoint("init", cfg.Init, false)
}

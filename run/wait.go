package run

import (
	"errors"
	"os"
	"path/filepath"
)

// Wait is a long preparation a run is in before or between its training steps, such as solving
// the exact references of its validation set: Done of Total units (instances) so far.
type Wait struct {
	What        string
	Done, Total int
	// Start is Done when the wait began: the units an earlier attempt did (the references a
	// stopped solve kept), which a pace estimate leaves out.
	Start int
}

// CacheOff is the --cache value that disables the shared cache.
const CacheOff = "off"

// CacheRoot resolves the --cache flag: "" is the user's cache directory ($XDG_CACHE_HOME/spg-tui,
// else ~/.cache/spg-tui on Linux), CacheOff is "" (no shared cache), anything else is itself.
func CacheRoot(flag string) (string, error) {
	switch flag {
	case CacheOff:
		return "", nil
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", errors.New("no cache directory: set XDG_CACHE_HOME or HOME, or give --cache DIR or --cache off")
		}
		return filepath.Join(dir, "spg-tui"), nil
	}
	return flag, nil
}

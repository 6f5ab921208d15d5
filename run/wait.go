package run

import (
	"fmt"
	"os"
	"path/filepath"
)

// Wait is a long computation a run is in, such as solving the exact references of its
// validation set: Done of Total units (instances) so far.
type Wait struct {
	What        string
	Done, Total int
	// Start is Done when the wait began: the units an earlier attempt did (the references a
	// stopped solve kept), which a pace estimate leaves out.
	Start int
	// Background reports that the run trains meanwhile; otherwise it waits for the computation.
	Background bool
}

// CacheOff is the --cache value that disables the shared cache.
const CacheOff = "off"

// CacheRoot resolves the --cache flag: "" is the user's cache directory ($XDG_CACHE_HOME/spg-tui,
// else $HOME/.cache/spg-tui), CacheOff is "" (no shared cache), anything else is itself.
func CacheRoot(flag string) (string, error) {
	switch flag {
	case CacheOff:
		return "", nil
	case "":
		return userCacheDir()
	}
	return flag, nil
}

// userCacheDir is the XDG base directory specification's cache directory for spg-tui: a
// relative XDG_CACHE_HOME is ignored, as the specification says (os.UserCacheDir refuses it).
// An error says what is wrong with each variable.
func userCacheDir() (string, error) {
	xdg, home := os.Getenv("XDG_CACHE_HOME"), os.Getenv("HOME")
	switch {
	case filepath.IsAbs(xdg):
		return filepath.Join(xdg, "spg-tui"), nil
	case filepath.IsAbs(home):
		return filepath.Join(home, ".cache", "spg-tui"), nil
	}
	state := func(name, v string) string {
		if v == "" {
			return name + " is unset"
		}
		return fmt.Sprintf("%s=%q is not an absolute path", name, v)
	}
	return "", fmt.Errorf("no cache directory: %s and %s; set one to an absolute path, or give --cache DIR or --cache off",
		state("XDG_CACHE_HOME", xdg), state("HOME", home))
}

package run

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// RemoveOrphans deletes the temporary files that WriteAtomic leaves behind when a process dies
// between creating and renaming them (a checkpoint's is as large as the replay buffer). It runs
// with the directory's lock held, so no live writer owns them.
func RemoveOrphans(dir string) error {
	for _, sub := range []string{".", filepath.Dir(LastCheckpoint), CacheDir} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if isAtomicTemp(e.Name()) && e.Type().IsRegular() {
				if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
	}
	return nil
}

// isAtomicTemp reports whether name is one of WriteAtomic's temporary names: "." + the target's
// name + ".tmp" + a random suffix.
func isAtomicTemp(name string) bool {
	i := strings.LastIndex(name, ".tmp")
	return strings.HasPrefix(name, ".") && i > 1 && len(name) > i+len(".tmp")
}

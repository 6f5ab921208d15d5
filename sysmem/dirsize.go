package sysmem

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// errTooMany stops a walk past its bound.
var errTooMany = errors.New("too many entries")

// DirSize is the size of the files under dir, walked without following links, and whether it is
// all of them: a walk stops after maxEntries entries, so that a huge tree costs a bounded time
// (the size is then at least the one returned). Entries that vanish or cannot be read during
// the walk (a run writing its checkpoint) are skipped.
func DirSize(dir string, maxEntries int) (size int64, complete bool, err error) {
	n := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil
		}
		if n++; n > maxEntries {
			return errTooMany
		}
		if d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	if errors.Is(err, errTooMany) {
		return size, false, nil
	}
	return size, err == nil, err
}

package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// TempDir is a directory written beside its destination and renamed into place once complete,
// so that the destination is never seen half-written. Its process holds an OS lock on it until
// then: a process killed before the rename leaves it behind unlocked, and RemoveLeftovers
// deletes it at the next use of the same prefix.
type TempDir struct {
	// Path is the directory's path.
	Path   string
	prefix string
	f      *os.File
}

// NewTempDir creates and locks a new directory in parent named prefix + a random number.
func NewTempDir(parent, prefix string) (*TempDir, error) {
	path, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return nil, err
	}
	f, err := lockedDir(path)
	if err == nil {
		// MkdirTemp makes the directory private; the destination is as readable as any other.
		err = os.Chmod(path, 0o755)
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		os.RemoveAll(path)
		return nil, err
	}
	return &TempDir{Path: path, prefix: prefix, f: f}, nil
}

// lockedDir opens the directory at path and takes its exclusive lock without waiting.
func lockedDir(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}

// Commit renames the directory to dst, which must not exist or be an empty directory, and
// releases it.
func (t *TempDir) Commit(dst string) error {
	if fi, err := os.Lstat(dst); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dst)
	}
	// Removing fails on a directory that is not empty, so nothing is lost.
	if err := os.Remove(dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(t.Path, dst); err != nil {
		return err
	}
	t.f.Close()
	t.f = nil
	return syncDir(filepath.Dir(filepath.Clean(dst)))
}

// Replace renames the directory to dst, which may be a directory of any content: that one is
// first moved aside, under a name RemoveLeftovers deletes should this process die before it
// does.
func (t *TempDir) Replace(dst string) error {
	// A fresh name of the prefix, freed for the rename (os.Rename refuses an existing directory).
	old, err := os.MkdirTemp(filepath.Dir(t.Path), t.prefix)
	if err != nil {
		return err
	}
	if err := os.Remove(old); err != nil {
		return err
	}
	if err := os.Rename(dst, old); err != nil {
		return err
	}
	if err := t.Commit(dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return os.RemoveAll(old)
}

// Discard deletes the directory unless it was committed, and releases it; it is safe twice.
func (t *TempDir) Discard() {
	if t.f != nil {
		os.RemoveAll(t.Path)
		t.f.Close()
		t.f = nil
	}
}

// syncDir makes the entries of the directory dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// RemoveLeftovers deletes the directories in parent that NewTempDir made with prefix and that
// no live process holds: those of a process that died before renaming them into place.
func RemoveLeftovers(parent, prefix string) error {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || !isTempName(e.Name(), prefix) {
			continue
		}
		path := filepath.Join(parent, e.Name())
		f, err := lockedDir(path)
		if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, os.ErrNotExist) {
			continue // a live writer's, or already gone
		}
		if err != nil {
			return err
		}
		err = os.RemoveAll(path)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// isTempName reports whether name is one of os.MkdirTemp's names for prefix: prefix + digits.
func isTempName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

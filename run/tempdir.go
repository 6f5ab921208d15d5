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
// then. It holds a mark file (copyMark) from its creation: a process killed before the rename
// leaves it behind unlocked and marked, and RemoveLeftovers deletes it at the next use of the
// same prefix. Replace swaps the destination in whole, so a kill at any step leaves it as it was
// or replaced, and what it held is never the only copy of anything once left behind.
type TempDir struct {
	// Path is the directory's path.
	Path   string
	prefix string
	f      *os.File
}

// copyMark is the file in a directory that says it is a copy, written by NewTempDir and into
// a destination before Replace swaps it out: RemoveLeftovers deletes a leftover only if it
// holds the mark or nothing, so a directory left by an older version's two renames (the only
// copy of a destination moved aside) is refused, never deleted.
const copyMark = ".spg-copy"

// stepHook, when set by a test, is called after each numbered step of Commit and Replace (4:
// after each entry of the replaced content deleted), where a test kills the process to check
// that every step leaves the destination whole.
var stepHook func(step int)

func step(n int) {
	if stepHook != nil {
		stepHook(n)
	}
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
	if err == nil {
		err = mark(path)
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
	step(1)
	return t.placed(dst)
}

// Replace puts the directory in place of dst, which may be a directory of any content, in one
// atomic exchange (renameat2 RENAME_EXCHANGE): dst is never missing, whatever step the process
// is killed at. dst's old content is marked as a copy first, so that what the exchange leaves
// at the temporary name is deleted as a leftover should this process die before it does.
func (t *TempDir) Replace(dst string) error {
	if fi, err := os.Lstat(dst); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dst)
	}
	if err := mark(dst); err != nil {
		return err
	}
	step(1)
	if err := unix.Renameat2(unix.AT_FDCWD, t.Path, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE); err != nil {
		os.Remove(filepath.Join(dst, copyMark))
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
			return fmt.Errorf("replacing %s: its file system cannot swap two directories in one step (renameat2 RENAME_EXCHANGE); write to a new directory", dst)
		}
		return fmt.Errorf("replacing %s: %w", dst, err)
	}
	step(2)
	if err := t.placed(dst); err != nil {
		return err
	}
	step(3)
	// t.Path now holds dst's old content, marked.
	return removeMarked(t.Path)
}

// placed finishes a rename of the directory to dst: it syncs dst's parent, removes dst's mark
// (a mark left in a destination by a kill is harmless: only leftovers are read for it) and
// releases the lock.
func (t *TempDir) placed(dst string) error {
	if err := syncDir(filepath.Dir(filepath.Clean(dst))); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dst, copyMark)); err != nil {
		return err
	}
	t.f.Close()
	t.f = nil
	return nil
}

// mark writes copyMark into the directory dir.
func mark(dir string) error {
	return os.WriteFile(filepath.Join(dir, copyMark), nil, 0o644)
}

// Discard deletes the directory unless it was committed, and releases it; it is safe twice.
func (t *TempDir) Discard() {
	if t.f != nil {
		removeMarked(t.Path)
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
		if !e.IsDir() || !IsTempName(e.Name(), prefix) {
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
		err = removeCopy(path)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// removeCopy deletes the leftover directory path if it is marked as a copy or empty, and
// refuses any other: it may be the only copy of a destination moved aside by an older version.
func removeCopy(path string) error {
	entries, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	_, merr := os.Lstat(filepath.Join(path, copyMark))
	if len(entries) > 0 && merr != nil {
		return fmt.Errorf("%s was left by a killed process and may hold the only copy of a directory it replaced; move it back in place or away, or delete it", path)
	}
	return removeMarked(path)
}

// removeMarked deletes the directory path, its mark last: killed part way, it is left marked.
func removeMarked(path string) error {
	entries, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != copyMark {
			if err := os.RemoveAll(filepath.Join(path, e.Name())); err != nil {
				return err
			}
			step(4)
		}
	}
	return os.RemoveAll(path)
}

// IsTempName reports whether name is one of os.MkdirTemp's names for prefix, prefix + digits: a
// name RemoveLeftovers reads as a leftover, which a destination must not take.
func IsTempName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	return ok && rest != "" && strings.Trim(rest, "0123456789") == ""
}

package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// LockFile is the file of a run directory that its writer holds an OS lock on (flock), with the
// writer's process ID inside. The lock, not the file, is what counts: it dies with the process,
// so a killed trainer never leaves its directory locked, and the file itself is never removed
// (removing it would let two processes lock two different files of the same name).
const LockFile = ".lock"

// DirLockedError refuses a second writer (trainer, resume or console) on a run directory that a
// live process holds.
type DirLockedError struct {
	Dir string
	// PID is the holder's process ID, as it wrote it in the lock file (0 if unreadable).
	PID int
}

func (e *DirLockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("run directory %s is in use by %s (one writer per run; tui --view %s reads it)", e.Dir, holder, e.Dir)
}

// DirLock is a held lock on a run directory.
type DirLock struct{ f *os.File }

// LockDir takes the exclusive lock of the existing directory dir without waiting: it fails
// with a *DirLockedError when another open file description (another process, or another run in
// this one) holds it.
func LockDir(dir string) (*DirLock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if errors.Is(err, unix.EWOULDBLOCK) {
		f.Close()
		return nil, &DirLockedError{Dir: dir, PID: lockHolder(path)}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// The PID only names the holder in the refusal; a stale one is harmless since the lock is
	// what refuses.
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &DirLock{f: f}, nil
}

// lockHolder reads the PID in the lock file at path; 0 if there is none.
func lockHolder(path string) int {
	data, err := ReadFileBounded(path, 64) // a PID and a newline
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0
	}
	return pid
}

// Release drops the lock (closing the file releases it). It is safe on a nil lock and twice.
func (l *DirLock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// LockHolder is the process ID the last writer of dir wrote in its lock file, 0 if none. It
// does not say whether that process still holds the lock (a viewer checks it is alive).
func LockHolder(dir string) int { return lockHolder(filepath.Join(dir, LockFile)) }

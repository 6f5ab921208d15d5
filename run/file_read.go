package run

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"spg-tui/sysmem"
)

// Bounds on the files the program reads back, each far above what it writes: a file past its
// bound is damaged or hostile (a sparse 64 GB file, /dev/zero behind a link), and is refused
// before a byte of it is held.
const (
	// MaxConfigBytes bounds a run's config.json and an experiment's manifest (a few kB).
	MaxConfigBytes = 1 << 20
	// MaxJSONBytes bounds the other files read whole: results, scores, manifests, the files
	// merge copies, test sets and references (whose readers bound them closer, by their size).
	MaxJSONBytes = 1 << 30
	// MaxRecordLine bounds one line of metrics.jsonl: an evaluation record with its sample
	// instances is the longest, well under it.
	MaxRecordLine = 64 << 20
)

// RefusedFileError is a file read back that is refused before it is held: not a regular file,
// past its bound, or (metrics.jsonl) with a line past MaxRecordLine. The file cannot be what it
// should be, so the directory or input that holds it is damaged: a command refuses it as bad
// input (exit 2), where an I/O error reading a file that could be read is a failure (exit 1).
type RefusedFileError struct{ msg string }

func (e *RefusedFileError) Error() string { return e.msg }

// refused is a RefusedFileError saying what fmt.Sprintf(format, args...) says.
func refused(format string, args ...any) error {
	return &RefusedFileError{fmt.Sprintf(format, args...)}
}

// OpenRegular opens the file at path for reading, refusing in one line anything that is not a
// regular file (a FIFO, a device, a directory) and a file of more than max bytes. A FIFO is
// opened without blocking, so one with no writer cannot hang the reader; the file returned
// blocks as usual. An error for a missing file is the os one (errors.Is fs.ErrNotExist).
func OpenRegular(path string, max int64) (*os.File, error) {
	fd, err := openNonBlocking(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(path, fi, max)
	}
	if err == nil {
		err = syscall.SetNonblock(fd, false)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openNonBlocking opens path read-only with O_NONBLOCK, retrying on EINTR.
func openNonBlocking(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// checkRegular refuses fi, the file at path, if it is not a regular file of at most max bytes.
func checkRegular(path string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return refused("%s is %s, not a regular file", path, fileKind(fi.Mode()))
	}
	if fi.Size() > max {
		size, bound := sysmem.Bytes(fi.Size()), sysmem.Bytes(max)
		if size == bound { // just past the bound: rounded, both would read the same
			size, bound = fmt.Sprintf("%d B", fi.Size()), fmt.Sprintf("%d B", max)
		}
		return refused("%s is %s, more than the %s such a file can hold", path, size, bound)
	}
	return nil
}

// fileKind names the type of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// ReadFileBounded reads the regular file at path whole, refusing it as OpenRegular does, and
// also if it grows past max bytes while it is read.
func ReadFileBounded(path string, max int64) ([]byte, error) {
	f, err := OpenRegular(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, refused("%s grew past the %s such a file can hold while it was read", path, sysmem.Bytes(max))
	}
	return data, nil
}

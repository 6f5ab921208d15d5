package run

import (
	"bufio"
	"errors"
	"io"

	"spg-tui/sysmem"
)

// LineReader reads the lines of a metrics.jsonl, which may still be growing, holding at most
// MaxRecordLine bytes of one: a file with no newline in sight (a NUL-filled or sparse one) is
// refused at its first long line instead of being held whole.
type LineReader struct {
	name    string
	r       *bufio.Reader
	partial []byte
	line    int
	read    int64
	stop    int64
	err     error
}

// NewLineReader reads lines from r; name is the file's path, for the error.
func NewLineReader(r io.Reader, name string) *LineReader {
	return &LineReader{name: name, r: bufio.NewReaderSize(r, 1<<16)}
}

// Next returns the next complete line with its newline, valid until the next call. At the end of
// what is written so far it returns io.EOF, keeping a line not yet ended for a later call to
// complete once the writer has written the rest. A line longer than MaxRecordLine is an error
// naming the file and the line, returned by every later call as well.
func (l *LineReader) Next() ([]byte, error) {
	if l.err != nil {
		return nil, l.err
	}
	if len(l.partial) > 0 && l.partial[len(l.partial)-1] == '\n' {
		l.partial = l.partial[:0]
	}
	for {
		if l.stop > 0 && l.read >= l.stop {
			return nil, io.EOF // the line begun is kept, as at the end of the file
		}
		chunk, err := l.r.ReadSlice('\n')
		l.partial = append(l.partial, chunk...)
		l.read += int64(len(chunk))
		if len(l.partial) > MaxRecordLine {
			l.err = refused("%s line %d is over %s: not a metrics file", l.name, l.line+1, sysmem.Bytes(MaxRecordLine))
			l.partial = nil
			return nil, l.err
		}
		switch {
		case err == nil:
			l.line++
			return l.partial, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil, io.EOF
		default:
			l.err = err
			return nil, err
		}
	}
}

// StopAt makes Next return io.EOF, keeping the line begun, once at bytes are read in all, so
// that a reader that must stay responsive reads a bounded amount per call; 0 is no stop.
func (l *LineReader) StopAt(at int64) { l.stop = at }

// Rest is the start of a line whose newline has not been read yet (a torn last line, or one
// being written), after Next returned io.EOF; nil if none.
func (l *LineReader) Rest() []byte {
	if len(l.partial) == 0 || l.partial[len(l.partial)-1] == '\n' {
		return nil
	}
	return l.partial
}

// Line is the number of complete lines read so far.
func (l *LineReader) Line() int { return l.line }

// BytesRead is the number of bytes read so far.
func (l *LineReader) BytesRead() int64 { return l.read }

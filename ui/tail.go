package ui

import (
	"bufio"
	"errors"
	"io"
	"os"

	"spg-tui/run"
)

// metricsTail reads a metrics.jsonl that may still be growing, from where its last read
// stopped: each call reads only the bytes written since. A line without its newline yet (the
// trainer mid-write) is kept until the rest arrives.
type metricsTail struct {
	path    string
	f       *os.File
	r       *bufio.Reader
	partial []byte
	line    int   // lines read so far
	damaged []int // 1-based numbers of the lines that are no record
}

func openMetricsTail(path string) (*metricsTail, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &metricsTail{path: path, f: f, r: bufio.NewReaderSize(f, 1<<16)}, nil
}

// read hands fn the records of the complete lines written since the last call, at most max of
// them (all when max <= 0); damaged lines are counted, not handed.
func (t *metricsTail) read(max int, fn func(run.Record)) error {
	for n := 0; max <= 0 || n < max; {
		chunk, err := t.r.ReadBytes('\n')
		t.partial = append(t.partial, chunk...)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		t.line++
		rec, ok := run.ParseRecordLine(t.partial)
		t.partial = t.partial[:0]
		if !ok {
			t.damaged = append(t.damaged, t.line)
			continue
		}
		fn(rec)
		n++
	}
	return nil
}

// replaced reports whether the file at the tail's path is no longer the one it reads: a resume
// rewrote it (write and rename).
func (t *metricsTail) replaced() bool {
	now, err := os.Stat(t.path)
	if err != nil {
		return false
	}
	open, err := t.f.Stat()
	return err == nil && !os.SameFile(now, open)
}

func (t *metricsTail) close() { t.f.Close() }

package runlog

import (
	"errors"
	"io"
	"math"
	"os"

	"spg-tui/run"
)

// tailBytesPerRead bounds the bytes one read takes from the file, so that a frame stays short
// whatever the file holds (a multi-gigabyte metrics.jsonl is read over many frames).
const tailBytesPerRead = 16 << 20

// metricsTail reads a metrics.jsonl that may still be growing, from where its last read
// stopped: each call reads only the bytes written since. A line without its newline yet (the
// trainer mid-write) is kept until the rest arrives; a line longer than run.MaxRecordLine ends
// the reading with an error.
type metricsTail struct {
	path  string
	f     *os.File
	lines *run.LineReader
	// firstDamaged is the 1-based number of the first line that is no record, damaged how many.
	firstDamaged, damaged int
}

func openMetricsTail(path string) (*metricsTail, error) {
	f, err := run.OpenRegular(path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	return &metricsTail{path: path, f: f, lines: run.NewLineReader(f, path)}, nil
}

// read hands fn the records of the complete lines written since the last call, at most max of
// them (all when max <= 0) and at most about tailBytesPerRead bytes; damaged lines are
// counted, not handed, but count towards max.
func (t *metricsTail) read(max int, fn func(run.Record)) error {
	t.lines.StopAt(t.lines.BytesRead() + tailBytesPerRead)
	for n := 0; max <= 0 || n < max; n++ {
		line, err := t.lines.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rec, ok := run.ParseRecordLine(line)
		if !ok {
			if t.damaged++; t.damaged == 1 {
				t.firstDamaged = t.lines.Line()
			}
			continue
		}
		fn(rec)
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

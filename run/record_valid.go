package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
)

// EventWarning is a notice that the console adds to what it shows, such as damaged lines of
// metrics.jsonl skipped by --view; the trainer never writes it.
const EventWarning = "warning"

// ParseRecordLine decodes one line of metrics.jsonl, newline included. ok is false when the
// line is not a record: torn (no newline: a run killed mid-write), not JSON, without a step, or
// of an unknown kind or without its kind's fields. A resume drops such lines and --view skips
// them, so both agree on what the run's records are.
func ParseRecordLine(line []byte) (rec Record, ok bool) {
	if !bytes.HasSuffix(line, []byte("\n")) {
		return Record{}, false
	}
	if body := bytes.TrimLeft(line, " \t\r"); len(body) == 0 || body[0] != '{' {
		return Record{}, false // not an object: refused before the decoder (a file of blank lines)
	}
	var head struct {
		Step *int `json:"step"`
	}
	if json.Unmarshal(line, &head) != nil || head.Step == nil || json.Unmarshal(line, &rec) != nil {
		return Record{}, false
	}
	switch {
	case rec.Kind == KindTrain && rec.Train != nil,
		rec.Kind == KindEval && rec.Eval != nil,
		rec.Kind == KindEvent && rec.Event != nil && rec.Event.Event != "":
		return rec, true
	}
	return Record{}, false
}

// ReadRecordsSkipping reads a metrics.jsonl file as --view does: every line ParseRecordLine
// accepts, in order, and the 1-based numbers of the damaged lines it skipped. A torn last line
// (a live run mid-write) is skipped without being counted.
func ReadRecordsSkipping(path string) (recs []Record, damaged []int, err error) {
	f, err := OpenRegular(path, math.MaxInt64)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	lr := NewLineReader(f, path)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return recs, damaged, nil // what is left, if anything, is torn
		}
		if err != nil {
			return nil, nil, err
		}
		if rec, ok := ParseRecordLine(line); ok {
			recs = append(recs, rec)
		} else {
			damaged = append(damaged, lr.Line())
		}
	}
}

// dropAbandonedAttempt removes, from the lines kept for a resume at step, those of an attempt
// that resumed at that step and died before its next checkpoint: everything from the first
// "start" event after the last checkpoint event of that step. Without it each killed attempt
// leaves one more start event behind.
func dropAbandonedAttempt(lines [][]byte, step int) [][]byte {
	lastCkpt := -1
	recs := make([]Record, len(lines))
	for i, l := range lines {
		recs[i], _ = ParseRecordLine(l)
		if e := recs[i].Event; e != nil && recs[i].Kind == KindEvent && e.Event == EventCheckpoint && recs[i].Step == step {
			lastCkpt = i
		}
	}
	if lastCkpt < 0 {
		return lines
	}
	for i := lastCkpt + 1; i < len(lines); i++ {
		if e := recs[i].Event; e != nil && recs[i].Kind == KindEvent && e.Event == EventStart {
			return lines[:i]
		}
	}
	return lines
}

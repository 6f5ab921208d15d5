package runlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/run"
)

// TestTailOfAHugeNULFileReadsBoundedFrames: a metrics.jsonl extended to 64 GB (NULs, no
// newline) used to be read whole in the view's first frame, growing the view by 140 MB/s and
// leaving q and signals unanswered. Each Tail must read at most tailBytesPerRead (and the
// one buffered read that crosses it), the reading must end in one refusal at the line bound,
// and nothing may be read past it. The bytes are checked, not the wall time: how long a
// frame takes depends on the machine's load.
func TestTailOfAHugeNULFileReadsBoundedFrames(t *testing.T) {
	dir := runDir(t, "")
	if err := os.Truncate(filepath.Join(dir, run.MetricsFile), 64<<30); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	// slack is far more than the line reader's buffer, far less than a frame.
	const slack = tailBytesPerRead / 16
	frames, read := 0, int64(0)
	for err == nil {
		if frames++; frames > run.MaxRecordLine/tailBytesPerRead+2 {
			t.Fatalf("no refusal after %d frames (%d bytes read)", frames-1, read)
		}
		_, err = r.Tail(0, func(run.Record) {})
		now := r.tail.lines.BytesRead()
		if now-read > tailBytesPerRead+slack {
			t.Fatalf("frame %d read %d bytes, more than %d a frame", frames, now-read, tailBytesPerRead)
		}
		read = now
	}
	if !strings.Contains(err.Error(), "is over 64.0 MiB: not a metrics file") {
		t.Errorf("frame %d: err = %v", frames, err)
	}
	if _, again := r.Tail(0, func(run.Record) {}); again == nil || r.tail.lines.BytesRead() != read {
		t.Errorf("the next frame read on past the refusal: err %v, %d bytes read, %d before", again, r.tail.lines.BytesRead(), read)
	}
	t.Logf("refused in frame %d after %d bytes", frames, read)
}

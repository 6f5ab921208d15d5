package checkpoint

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/internal/filetest"
	"spg-tui/sysmem"
)

// TestCheckpointRefusesHugeOrSpecialFiles: a checkpoint whose learner section claims 8 TiB
// within a sparse file of that size used to be allocated whole (fatal out of memory); a FIFO
// checkpoint used to hang the resume. Both are refused in one line.
func TestCheckpointRefusesHugeOrSpecialFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	h := &Header{Config: tinyConfig(envs.TaskMWM, 4), Step: 3}
	if err := Write(path, h, []byte("params"), replay.New(4, 64)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	headerLen := binary.LittleEndian.Uint64(data[len(fileMagic):])
	at := len(fileMagic) + 8 + int(headerLen) + 4 // the learner section's length
	const huge = 8 << 40
	if sysmem.Limit() == 0 || sysmem.Limit() >= huge {
		t.Skip("no memory limit below 8 TiB to refuse at")
	}
	binary.LittleEndian.PutUint64(data[at:], huge)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, huge+int64(len(data))); err != nil {
		t.Skipf("no sparse file of 8 TiB here: %v", err)
	}
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "its learner section needs about 8.0 TiB of memory") || strings.Contains(err.Error(), "\n") {
		t.Errorf("an 8 TiB learner section: %v", err)
	}

	os.Remove(path)
	filetest.FIFO(t, path)
	err = filetest.Within(t, "opening a FIFO checkpoint", func() error { _, err := Open(path); return err })
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("a FIFO checkpoint: %v", err)
	}
}

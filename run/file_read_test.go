package run

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/internal/filetest"
)

// sparseFile makes a file of size bytes at path that takes no disk: all NULs, no newline.
func sparseFile(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
}

// oneLine fails the test unless err is a one-line error containing want.
func oneLine(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line with %q", err, want)
	}
}

func TestReadFileBoundedRefusesWhatIsNotARegularFileOfItsSize(t *testing.T) {
	dir := t.TempDir()
	plain, big, pipe, link := filepath.Join(dir, "plain"), filepath.Join(dir, "big"), filepath.Join(dir, "pipe"), filepath.Join(dir, "zero")
	os.WriteFile(plain, []byte("12345"), 0o644)
	sparseFile(t, big, 64<<30)
	filetest.FIFO(t, pipe)
	os.Symlink("/dev/zero", link)

	if b, err := ReadFileBounded(plain, 5); err != nil || string(b) != "12345" {
		t.Errorf("a file of the bound: %q, %v", b, err)
	}
	_, err := ReadFileBounded(plain, 4)
	oneLine(t, err, "plain is 5 B, more than the 4 B such a file can hold")
	_, err = ReadFileBounded(plain, 4<<10)
	if err != nil {
		t.Errorf("a file under the bound: %v", err)
	}
	os.WriteFile(plain, make([]byte, 1<<20+1), 0o644)
	_, err = ReadFileBounded(plain, 1<<20)
	oneLine(t, err, "plain is 1048577 B, more than the 1048576 B such a file can hold")
	_, err = ReadFileBounded(big, MaxJSONBytes)
	oneLine(t, err, "big is 64.0 GiB, more than the 1.0 GiB")
	err = filetest.Within(t, "reading a FIFO", func() error { _, err := ReadFileBounded(pipe, 10); return err })
	oneLine(t, err, "pipe is a named pipe, not a regular file")
	_, err = ReadFileBounded(link, 10)
	oneLine(t, err, "zero is a character device, not a regular file")
	_, err = ReadFileBounded(dir, 10)
	oneLine(t, err, "is a directory, not a regular file")
	if _, err := ReadFileBounded(filepath.Join(dir, "none"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestReadRunConfigRefusesASparseConfig(t *testing.T) {
	dir := t.TempDir()
	sparseFile(t, filepath.Join(dir, ConfigFile), 64<<30)
	_, err := ReadRunConfig(dir)
	oneLine(t, err, "config.json is 64.0 GiB, more than the 1.0 MiB such a file can hold")
}

func TestMetricsReadersRefuseAHugeNULFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	sparseFile(t, path, 64<<30)
	want := "metrics.jsonl line 1 is over 64.0 MiB: not a metrics file"
	_, err := MetricsRunIDs(dir)
	oneLine(t, err, want)
	oneLine(t, TruncateMetrics(dir, 10), want)
	_, err = ReadRecords(path)
	oneLine(t, err, want)
	_, _, err = ReadRecordsSkipping(path)
	oneLine(t, err, want)
}

func TestMetricsReadersRefuseAFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	filetest.FIFO(t, path)
	want := "metrics.jsonl is a named pipe, not a regular file"
	oneLine(t, filetest.Within(t, "MetricsRunIDs", func() error { _, err := MetricsRunIDs(dir); return err }), want)
	oneLine(t, filetest.Within(t, "TruncateMetrics", func() error { return TruncateMetrics(dir, 1) }), want)
	oneLine(t, filetest.Within(t, "ReadRecords", func() error { _, err := ReadRecords(path); return err }), want)
}

func TestLineReaderCompletesALineWrittenLater(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	os.WriteFile(path, []byte("a\nb"), 0o644)
	f, err := OpenRegular(path, MaxJSONBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lr := NewLineReader(f, path)
	if line, err := lr.Next(); string(line) != "a\n" || err != nil {
		t.Fatalf("first line %q, %v", line, err)
	}
	if _, err := lr.Next(); err == nil || string(lr.Rest()) != "b" {
		t.Fatalf("a line without its newline: %v, rest %q", err, lr.Rest())
	}
	w, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	w.WriteString("c\n")
	w.Close()
	if line, err := lr.Next(); string(line) != "bc\n" || err != nil || lr.Line() != 2 {
		t.Errorf("the completed line: %q, %v, line %d", line, err, lr.Line())
	}
}

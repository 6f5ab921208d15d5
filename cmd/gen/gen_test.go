package gencmd_test

import (
	"syscall"
	"testing"

	"spg-tui/internal/clitest"
)

// TestGenStreams: gen used to build the whole file in memory (gen --count 10000000 took 2.2 GB
// and then died); it must write in constant memory. Two million sort-2 instances (34 MB of
// output, 460 MiB of resident memory before) must run in under 150 MiB (the test binary itself
// takes about 70).
func TestGenStreams(t *testing.T) {
	cmd := clitest.Command("gen", "--task", "sort", "--n", "2", "--count", "2000000")
	var counted countingWriter
	cmd.Stdout = &counted
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("%d bytes written, peak RSS %d MiB", counted.n, rss>>20)
	if counted.n < 30<<20 || rss > 150<<20 {
		t.Errorf("%d bytes with a peak RSS of %d MiB", counted.n, rss>>20)
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

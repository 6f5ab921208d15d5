package sysmem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParseStat: the CPU time is read after the command's name, whatever it holds.
func TestParseStat(t *testing.T) {
	line := "123 (a (weird) name) S 1 123 123 0 -1 4194304 10 0 0 0 250 75 0 0 20 0 4 0 100 1000 50 0\n"
	got, err := parseStatCPU([]byte(line))
	if err != nil || got != 3250*time.Millisecond {
		t.Errorf("CPU %v, %v; want 3.25s (325 ticks)", got, err)
	}
	if _, err := parseStatCPU([]byte("123 (x) S 1")); err == nil {
		t.Error("a short line accepted")
	}
	rss, err := parseRSS([]byte("Name:\tx\nVmRSS:\t    1968 kB\nThreads:\t1\n"))
	if err != nil || rss != 1968<<10 {
		t.Errorf("RSS %d, %v", rss, err)
	}
	if rss, err := parseRSS([]byte("Name:\tkthread\n")); err != nil || rss != 0 {
		t.Errorf("no VmRSS: %d, %v", rss, err)
	}
}

// TestReadProcSelf: this process has used some CPU time and holds some memory.
func TestReadProcSelf(t *testing.T) {
	p, err := ReadProc(os.Getpid())
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	if p.RSS <= 0 || p.CPU < 0 {
		t.Errorf("%+v", p)
	}
	if _, err := ReadProc(-1); err == nil {
		t.Error("pid -1 read")
	}
}

// TestDirSize: the files' sizes are summed, links not followed, and a walk past its bound says
// it is partial.
func TestDirSize(t *testing.T) {
	dir := t.TempDir()
	for i, n := range []int{100, 2000, 30} {
		sub := filepath.Join(dir, strings.Repeat("d", i+1))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "f"), make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/", filepath.Join(dir, "root")); err != nil {
		t.Fatal(err)
	}
	size, complete, err := DirSize(dir, 1000)
	if err != nil || !complete || size != 2130 {
		t.Errorf("size %d, complete %v, %v; want 2130, all", size, complete, err)
	}
	if _, complete, _ := DirSize(dir, 3); complete {
		t.Error("a walk past its bound says it is complete")
	}
	if _, _, err := DirSize(filepath.Join(dir, "none"), 10); err == nil {
		t.Error("a missing directory walked")
	}
}

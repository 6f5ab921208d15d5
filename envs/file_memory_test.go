package envs

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// sampleHeap samples the live heap every millisecond until stop is closed and sends the peak.
func sampleHeap(stop <-chan struct{}, peak chan<- uint64) {
	var ms runtime.MemStats
	var top uint64
	for {
		runtime.ReadMemStats(&ms)
		top = max(top, ms.HeapAlloc)
		select {
		case <-stop:
			peak <- top
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// TestReadFileStreams reads a 28 MB file of MWM-10 instances (about 14 MB parsed) and checks
// that the heap (live data and garbage not yet collected) stays under twice the file: reading it
// whole first, then a raw copy of every instance, used to take 3 times its size (85 MB here);
// streaming takes about the file's size, the parsed data and the collector's headroom, which
// depends on when the collector runs (31-43 MB in three runs on a quiet machine, so the
// earlier bound of 1.5 times failed now and then).
func TestReadFileStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 30 MB file")
	}
	path := filepath.Join(t.TempDir(), "mwm10.json")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := New(TaskMWM, 10)
	w := bufio.NewWriter(out)
	fw, err := NewFileWriter(w, TaskMWM, 10)
	if err != nil {
		t.Fatal(err)
	}
	const count = 36000
	for i := range count {
		if err := fw.Write(env.Generate(1, i)); err != nil {
			t.Fatal(err)
		}
	}
	if fw.Close() != nil || w.Flush() != nil || out.Close() != nil {
		t.Fatal("writing the file")
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop, top := make(chan struct{}), make(chan uint64)
	go sampleHeap(stop, top)
	f, _, err := ReadFile(in)
	close(stop)
	if err != nil || len(f.Instances) != count {
		t.Fatal(err)
	}
	peak := int64(<-top) - int64(base.HeapAlloc)
	t.Logf("file %d MB, heap peak above the start %d MB", st.Size()>>20, peak>>20)
	if peak > st.Size()*2 {
		t.Errorf("reading a %d MB file held %d MB of heap", st.Size()>>20, peak>>20)
	}
}

package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/internal/filetest"
	"spg-tui/run"
)

// loadSet reads MWM-10's test set of 20 instances from the experiment directory dir as a run's
// scoring does, with the warnings it gave.
func loadSet(t *testing.T, dir string) (TestSet, []string) {
	t.Helper()
	var warns []string
	done := make(chan struct{})
	var set TestSet
	var err error
	go func() {
		defer close(done)
		set, err = newTestSets(dir, func(m string) { warns = append(warns, m) }).get(envs.TaskMWM, 10, "", 20)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("reading the test set hangs")
	}
	if err != nil {
		t.Fatal(err)
	}
	return set, warns
}

// TestTestSetIsCheckedBeforeUse is issue 33's second reproduction and its kin: a test set on
// disk with halved optima (a ratio of 1.49), an array cut to 3 (a panic), a FIFO or a sparse
// 64 GB file is told in one line and computed again.
func TestTestSetIsCheckedBeforeUse(t *testing.T) {
	dir := t.TempDir()
	first, warns := loadSet(t, dir)
	if len(warns) != 0 || len(first.Optimum) != 20 || first.Checksum == "" {
		t.Fatalf("first set: %d optima, checksum %q, warnings %q", len(first.Optimum), first.Checksum, warns)
	}
	path := filepath.Join(dir, "testsets", first.Name()+".json")
	edit := func(change func(m map[string]any)) {
		var m map[string]any
		if err := run.ReadJSON(path, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		data, _ := json.Marshal(m)
		os.Remove(path)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(what, want string) {
		t.Helper()
		got, warns := loadSet(t, dir)
		if !reflect.DeepEqual(got, first) {
			t.Errorf("%s: the set used is not the one computed first", what)
		}
		if len(warns) != 1 || !strings.Contains(warns[0], want) || strings.Contains(warns[0], "\n") {
			t.Errorf("%s: warnings %q, want one line with %q", what, warns, want)
		}
	}
	edit(func(m map[string]any) {
		opt := m["optimum"].([]any)
		for i := range opt {
			opt[i] = opt[i].(float64) / 2
		}
	})
	expect("optima halved", "its checksum does not match")

	edit(func(m map[string]any) { m["optimum"] = m["optimum"].([]any)[:3] })
	expect("optima cut to 3", "it has 3 optima for 20 instances")

	edit(func(m map[string]any) { m["optimum"].([]any)[4] = -1.0 })
	expect("a negative optimum", "instance 4: its optimum -1 is not a positive number")

	edit(func(m map[string]any) { m["solvers"] = map[string]any{"bogus": 1.0} })
	expect("another solver", "its solvers are")

	edit(func(m map[string]any) { delete(m, "checksum") })
	if got, warns := loadSet(t, dir); len(warns) != 0 || !reflect.DeepEqual(got, first) {
		t.Errorf("a set from before checksums: warnings %q, or another set", warns)
	}

	if err := os.Truncate(path, 64<<30); err != nil {
		t.Skipf("no sparse file: %v", err)
	}
	expect("64 GB file", "is 64.0 GiB, more than the")

	os.Remove(path)
	filetest.FIFO(t, path)
	expect("a FIFO", "is a named pipe, not a regular file")
}

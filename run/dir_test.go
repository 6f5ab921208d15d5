package run

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteAtomicKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "old"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteAtomic(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("new", 1<<20)) // more than the write buffer: a real partial file
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("content %q after a failed write", got[:min(len(got), 10)])
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestTruncateMetrics(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MetricsFile)
	body := `{"kind":"event","step":0,"wall":0,"event":"start"}
{"kind":"train","step":5,"wall":1,"reward_mean":1}
{"kind":"event","step":5,"wall":1,"event":"checkpoint"}
{"kind":"train","step":10,"wall":2,"reward_mean":2}
{"kind":"train","step":15,"wa`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := TruncateMetrics(dir, 5); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(path)
	if err != nil || len(recs) != 3 || recs[2].Event == nil || recs[2].Event.Event != EventCheckpoint {
		t.Errorf("after truncation: %+v, %v", recs, err)
	}
}

// A path that names a file or a dangling symbolic link, or lies under one, is refused with a
// plain error naming it (the user's input, not an I/O failure); a path that is or can be a
// directory passes, and nothing is created.
func TestCheckDirPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	link := filepath.Join(dir, "linkrun")
	if os.WriteFile(file, nil, 0o644) != nil || os.Symlink(filepath.Join(dir, "nowhere"), link) != nil {
		t.Fatal("making the fixtures")
	}
	for _, tc := range []struct{ path, want string }{
		{file, file + " is a file, not a directory"},
		{filepath.Join(file, "sub", "run"), filepath.Join(file, "sub", "run") + ": " + file + " is a file, not a directory"},
		{link, link + " is a symbolic link to " + filepath.Join(dir, "nowhere") + ", which does not exist"},
		{filepath.Join(link, "run"), ": " + link + " is a symbolic link to "},
		{dir, ""},
		{filepath.Join(dir, "new", "run"), ""},
	} {
		err := CheckDirPath(tc.path)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.path, err)
			}
			continue
		}
		var pathErr *os.PathError
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.As(err, &pathErr) {
			t.Errorf("%s: %v, want a plain error containing %q", tc.path, err, tc.want)
		}
		if MakeDir(tc.path) == nil {
			t.Errorf("MakeDir(%s) succeeded", tc.path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Error("CheckDirPath created a directory")
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("a refused path created the link's target")
	}
}

// A temporary directory is renamed into place whole; RemoveLeftovers deletes those of dead
// processes only, and Replace swaps a directory of any content.
func TestTempDir(t *testing.T) {
	parent := t.TempDir()
	dead := filepath.Join(parent, ".x-123")
	other := filepath.Join(parent, ".x-mine")
	empty := filepath.Join(parent, ".x-7")
	for _, d := range []string{dead, other, empty} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if os.Remove(filepath.Join(empty, "sub")) != nil || mark(dead) != nil {
		t.Fatal("making the fixtures")
	}
	live, err := NewTempDir(parent, ".x-")
	if err != nil {
		t.Fatal(err)
	}
	if err := RemoveLeftovers(parent, ".x-"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty); err == nil {
		t.Error("an empty leftover was kept")
	}
	for path, want := range map[string]bool{dead: false, other: true, live.Path: true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", path, err == nil, want)
		}
	}
	if err := os.WriteFile(filepath.Join(live.Path, "f"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(parent, "dst")
	if err := os.MkdirAll(filepath.Join(dst, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(dst); err == nil {
		t.Error("Commit over a directory that is not empty succeeded")
	}
	if err := live.Replace(dst); err != nil {
		t.Fatal(err)
	}
	live.Discard()
	if b, err := os.ReadFile(filepath.Join(dst, "f")); err != nil || string(b) != "new" {
		t.Errorf("after Replace: %q, %v", b, err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 2 {
		t.Errorf("after Replace the parent holds %v, want dst and .x-mine", entries)
	}
}

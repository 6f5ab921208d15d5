package run

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// killEnv names the helper process's task: "replace" or "commit", the step to be killed at,
// and the parent directory.
const killEnv = "SPG_TEMPDIR_KILL"

// A process killed at any step of Replace or Commit leaves the destination whole, old or new,
// and a leftover that RemoveLeftovers deletes without touching the destination.
func TestTempDirKilledAtEachStep(t *testing.T) {
	for _, tc := range []struct {
		op    string
		steps int
	}{{"replace", 4}, {"commit", 1}} {
		for k := 0; k <= tc.steps; k++ {
			parent := t.TempDir()
			dst := filepath.Join(parent, "dst")
			if tc.op == "replace" {
				if os.MkdirAll(dst, 0o755) != nil || os.WriteFile(filepath.Join(dst, "f"), []byte("old"), 0o644) != nil {
					t.Fatal("making the fixtures")
				}
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestTempDirKillHelper$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s:%d:%s", killEnv, tc.op, k, parent))
			out, err := cmd.CombinedOutput()
			if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("%s killed at step %d: %v, %s", tc.op, k, err, out)
			}
			b, err := os.ReadFile(filepath.Join(dst, "f"))
			switch {
			case err == nil && (string(b) == "new" || string(b) == "old" && tc.op == "replace"):
			case os.IsNotExist(err) && tc.op == "commit" && k == 0:
			default:
				t.Errorf("%s killed at step %d: dst/f holds %q, %v", tc.op, k, b, err)
			}
			if err := RemoveLeftovers(parent, ".x-"); err != nil {
				t.Errorf("%s killed at step %d: %v", tc.op, k, err)
			}
			if after, _ := os.ReadFile(filepath.Join(dst, "f")); string(after) != string(b) {
				t.Errorf("%s killed at step %d: RemoveLeftovers changed dst/f from %q to %q", tc.op, k, b, after)
			}
			if entries, _ := os.ReadDir(parent); len(entries) > 1 {
				t.Errorf("%s killed at step %d: the parent holds %v after RemoveLeftovers", tc.op, k, entries)
			}
		}
	}
	// An older version moved the destination aside, unmarked, before its second rename: killed
	// there, the leftover is the only copy and is refused, not deleted.
	parent := t.TempDir()
	aside := filepath.Join(parent, ".x-5")
	if os.MkdirAll(aside, 0o755) != nil || os.WriteFile(filepath.Join(aside, "f"), []byte("old"), 0o644) != nil {
		t.Fatal("making the fixtures")
	}
	if err := RemoveLeftovers(parent, ".x-"); err == nil || !strings.Contains(err.Error(), aside+" was left by a killed process and may hold the only copy") {
		t.Errorf("an unmarked leftover: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(aside, "f")); string(b) != "old" {
		t.Error("an unmarked leftover was deleted")
	}
}

// TestTempDirKillHelper is the process TestTempDirKilledAtEachStep kills: it writes a new
// dst through a TempDir and kills itself at the step named in killEnv.
func TestTempDirKillHelper(t *testing.T) {
	task := os.Getenv(killEnv)
	if task == "" {
		t.Skip("run by TestTempDirKilledAtEachStep")
	}
	var op, parent string
	var k int
	if f := strings.SplitN(task, ":", 3); len(f) == 3 {
		op, parent = f[0], f[2]
		fmt.Sscan(f[1], &k)
	}
	kill := func(n int) {
		if n == k {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal ends the process
		}
	}
	tmp, err := NewTempDir(parent, ".x-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp.Path, "f"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	kill(0)
	stepHook = kill
	dst := filepath.Join(parent, "dst")
	if op == "replace" {
		err = tmp.Replace(dst)
	} else {
		err = tmp.Commit(dst)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Fatalf("%s has no step %d", op, k)
}

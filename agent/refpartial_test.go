package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
)

// partialConfig is a TSP run whose validation references take a second or so to solve, long
// enough to stop it halfway.
func partialConfig() run.Config {
	cfg := tinyConfig(envs.TaskTSP, 10)
	cfg.ValSize = 3000
	return cfg
}

// stopDuringSolve starts cfg in dir, stops it once at least 30 validation references are
// solved, and returns the number of instances the partial file it left holds, which must be
// fewer than the set's.
func stopDuringSolve(t *testing.T, cfg run.Config, dir, partial string) int {
	t.Helper()
	return stopSplitSolve(t, mustStart(t, cfg, dir, fakeOpts{}), envs.Validation, cfg.ValSize, partial)
}

// stopSplitSolve stops e once at least 30 references of its split set (of size instances) are
// solved, and returns the number of instances the partial file holds, fewer than size.
func stopSplitSolve(t *testing.T, e *trainer, split envs.Split, size int, partial string) int {
	t.Helper()
	what := fmt.Sprintf("the %s set", split)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Microsecond) {
		if w := e.Status().Wait; strings.Contains(w.What, what) && w.Done >= 30 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the references never reached 30 solved: %+v", e.Status().Wait)
		}
	}
	e.Stop()
	waitDone(t, e)
	if s := e.Status(); s.State != run.StateStopped || e.Err() != nil {
		t.Fatalf("status %+v, %v", s, e.Err())
	}
	data, err := readPartial(partial)
	if err != nil {
		t.Fatalf("no partial references kept: %v", err)
	}
	kept := bytes.Count(data, []byte{'\n'}) - 1
	if kept < 30 || kept >= size {
		t.Fatalf("%d instances kept, want from 30 to fewer than %d", kept, size)
	}
	return kept
}

// finish runs e to its end and returns its log and warnings.
func finish(t *testing.T, e run.Engine, dir string) (log string, warnings []string) {
	t.Helper()
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, run.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range readMetrics(t, dir) {
		if r.Kind == run.KindEvent && r.Event.Event == run.EventWarning {
			warnings = append(warnings, r.Event.Message)
		}
	}
	return string(data), warnings
}

// continued is the log line of a solve that continues from kept instances of cfg's validation set.
func continued(cfg run.Config, kept int) string {
	return fmt.Sprintf("%d of the %d references of the validation set were solved by an earlier attempt", kept, cfg.ValSize)
}

// checkFreshReferences fails unless the run in dir has the references of an uninterrupted solve
// of cfg's split set, byte for byte, and no partial file (partial, a path or a pattern) left.
func checkFreshReferences(t *testing.T, cfg run.Config, split envs.Split, dir, partial string) {
	t.Helper()
	env, err := envs.New(cfg.Task, cfg.N)
	if err != nil {
		t.Fatal(err)
	}
	size := cfg.ValSize
	if split == envs.Test {
		size = cfg.TestSize
	}
	ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, split), Size: size}
	name := eval.SplitName(split) + ".json"
	fresh := filepath.Join(t.TempDir(), name)
	if _, err := eval.LoadReference(fresh, env, ds, eval.NewSet(split, ds, envs.MustFacts(ds.Env.Task())).Insts, split == envs.Validation, new(atomic.Bool)); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, run.CacheDir, name)); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the continued %s references differ from an uninterrupted solve's (%v)", split, err)
	}
	if left, _ := filepath.Glob(partial); len(left) != 0 {
		t.Errorf("the partial file is left after the solve: %q", left)
	}
}

// sharedPartial is the pattern of the partial file of a validation set's solve in the shared
// cache at root.
func sharedPartial(root string) string {
	return filepath.Join(root, "references", "*.partial.json")
}

// readPartial reads the one partial file that partial (a path or a pattern) names.
func readPartial(partial string) ([]byte, error) {
	matches, err := filepath.Glob(partial)
	if err != nil || len(matches) != 1 {
		return nil, fmt.Errorf("partial files %s: %q (%v), want one", partial, matches, err)
	}
	return os.ReadFile(matches[0])
}

// TestStoppedReferenceSolveContinues stops a run while it solves its validation references:
// the instances solved are kept, and the resumed run starts its count there (it used to start
// at 0, all the work lost) and ends with the references of an uninterrupted solve. The resume
// finds them in the run's directory also with a shared cache, which train --resume uses by
// default whatever the first attempt's --cache was.
func TestStoppedReferenceSolveContinues(t *testing.T) {
	for _, cacheAtResume := range []bool{false, true} {
		t.Run(fmt.Sprintf("cache at resume %t", cacheAtResume), func(t *testing.T) {
			cfg, dir := partialConfig(), t.TempDir()
			partial := filepath.Join(dir, run.CacheDir, "val.partial.json")
			kept := stopDuringSolve(t, cfg, dir, partial)
			if cacheAtResume {
				eval.SetReferenceCache(t.TempDir())
				defer eval.SetReferenceCache("")
			}
			r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
			if err != nil {
				t.Fatal(err)
			}
			// The solve's count, as train and the console show it, starts at the instances kept;
			// the run trains meanwhile.
			w := r.Status().Wait
			for ; w.What == "" && r.Status().State != run.StateDone; w = r.Status().Wait {
				time.Sleep(100 * time.Microsecond)
			}
			if w.Start != kept || w.Done < kept {
				t.Errorf("the resumed solve shows %+v, want it to start at %d", w, kept)
			}
			log, warnings := finish(t, r, dir)
			if !strings.Contains(log, continued(cfg, kept)) || len(warnings) != 0 {
				t.Errorf("the resumed run's log lacks %q (warnings %q):\n%s", continued(cfg, kept), warnings, log)
			}
			checkFreshReferences(t, cfg, envs.Validation, dir, partial)
		})
	}
}

// TestStoppedTestReferenceSolveContinues stops a run while it solves its test set's references
// after its last step (it used to say "stopped at step 40 of 40" and, resumed, solve them all
// again): the resume continues from those kept, to the references of an uninterrupted solve.
func TestStoppedTestReferenceSolveContinues(t *testing.T) {
	cfg, dir := tinyConfig(envs.TaskTSP, 10), t.TempDir()
	cfg.TestSize = 3000
	partial := filepath.Join(dir, run.CacheDir, "test.partial.json")
	e := mustStart(t, cfg, dir, fakeOpts{})
	kept := stopSplitSolve(t, e, envs.Test, cfg.TestSize, partial)
	if s := e.Status(); s.Step != cfg.Steps {
		t.Fatalf("stopped at step %d, want %d", s.Step, cfg.Steps)
	}
	r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	log, warnings := finish(t, r, dir)
	line := fmt.Sprintf("%d of the %d references of the test set were solved by an earlier attempt", kept, cfg.TestSize)
	if !strings.Contains(log, line) || len(warnings) != 0 {
		t.Errorf("the resumed run's log lacks %q (warnings %q):\n%s", line, warnings, log)
	}
	checkFreshReferences(t, cfg, envs.Test, dir, partial)
}

// TestSharedPartialReferences stops a run while it solves its validation references with a
// shared cache: another run of the same task, size and seeds, in another directory, continues
// from the instances the first kept.
func TestSharedPartialReferences(t *testing.T) {
	cache := t.TempDir()
	eval.SetReferenceCache(cache)
	defer eval.SetReferenceCache("")
	cfg, first := partialConfig(), t.TempDir()
	partial := sharedPartial(cache)
	kept := stopDuringSolve(t, cfg, first, partial)
	second := t.TempDir()
	log, warnings := finish(t, mustStart(t, cfg, second, fakeOpts{}), second)
	if !strings.Contains(log, continued(cfg, kept)) || len(warnings) != 0 {
		t.Errorf("the second run's log lacks %q (warnings %q):\n%s", continued(cfg, kept), warnings, log)
	}
	checkFreshReferences(t, cfg, envs.Validation, second, partial)
}

// TestDamagedPartialReferences damages the partial file a stopped solve kept (cut inside a
// line, or a solution changed under its checksum): the resumed run says so in one warning and
// solves every instance again, to the references of an uninterrupted solve.
func TestDamagedPartialReferences(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(data []byte) []byte
		says   string
	}{
		{"cut", func(data []byte) []byte { return data[:len(data)-10] }, "cut short"},
		{"altered", func(data []byte) []byte {
			lines := bytes.Split(data, []byte{'\n'})
			var l struct {
				Index    int     `json:"index"`
				Perms    [][]int `json:"perms"`
				Checksum string  `json:"checksum,omitempty"`
			}
			if err := json.Unmarshal(lines[2], &l); err != nil {
				t.Fatal(err)
			}
			p := l.Perms[0]
			p[1], p[2] = p[2], p[1]
			lines[2], _ = json.Marshal(l)
			return bytes.Join(lines, []byte{'\n'})
		}, "line 3: its checksum does not match"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, dir := partialConfig(), t.TempDir()
			partial := filepath.Join(dir, run.CacheDir, "val.partial.json")
			kept := stopDuringSolve(t, cfg, dir, partial)
			data, err := os.ReadFile(partial)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(partial, c.damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
			if err != nil {
				t.Fatal(err)
			}
			log, warnings := finish(t, r, dir)
			if len(warnings) != 1 || !strings.Contains(warnings[0], "damaged") || !strings.Contains(warnings[0], c.says) {
				t.Errorf("warnings %q, want one that says damaged, %s", warnings, c.says)
			}
			if strings.Contains(log, continued(cfg, kept)) {
				t.Errorf("the run continued from a damaged file:\n%s", log)
			}
			checkFreshReferences(t, cfg, envs.Validation, dir, partial)
		})
	}
}

// TestKilledReferenceSolve kills (SIGKILL) a process while its run solves the validation
// references into a shared cache: every instance written before the kill is read back whole,
// and the next run of the same set continues from all of them without a warning. The test
// binary itself is that process, run with refKillRootEnv set.
func TestKilledReferenceSolve(t *testing.T) {
	cfg := partialConfig()
	if root := os.Getenv(refKillRootEnv); root != "" {
		eval.SetReferenceCache(filepath.Join(root, "cache"))
		mustStart(t, cfg, filepath.Join(root, "killed"), fakeOpts{})
		time.Sleep(time.Minute) // until killed
		t.Fatal("not killed")
	}
	root := t.TempDir()
	eval.SetReferenceCache(filepath.Join(root, "cache"))
	defer eval.SetReferenceCache("")
	partial := sharedPartial(filepath.Join(root, "cache"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledReferenceSolve$")
	cmd.Env = append(os.Environ(), refKillRootEnv+"="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Microsecond) {
		if data, err := readPartial(partial); err == nil && bytes.Count(data, []byte{'\n'}) > 30 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the references never reached 30 kept")
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	data, err := readPartial(partial)
	if err != nil {
		t.Fatal(err)
	}
	kept := bytes.Count(data, []byte{'\n'}) - 1
	if kept >= cfg.ValSize {
		t.Fatalf("all %d instances were solved before the kill", kept)
	}
	dir := filepath.Join(root, "next")
	log, warnings := finish(t, mustStart(t, cfg, dir, fakeOpts{}), dir)
	if !strings.Contains(log, continued(cfg, kept)) || len(warnings) != 0 {
		t.Errorf("the next run's log lacks %q (warnings %q):\n%s", continued(cfg, kept), warnings, log)
	}
	checkFreshReferences(t, cfg, envs.Validation, dir, partial)
}

// refKillRootEnv names the directory of TestKilledReferenceSolve's process to be killed.
const refKillRootEnv = "SPG_TEST_REF_KILL_ROOT"

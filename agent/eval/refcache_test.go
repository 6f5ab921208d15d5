package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// cacheRun prepares cfg's validation set (with baselines) and test set in a fresh run
// directory as a run's start and end do, and returns how many reference sets it solved and the
// warnings it told.
func cacheRun(t *testing.T, cfg run.Config) (solved int64, warnings []string) {
	t.Helper()
	before := referenceComputations.Load()
	dir := t.TempDir()
	env, err := envs.NewData(cfg.Task, cfg.N, cfg.Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []envs.Split{envs.Validation, envs.Test} {
		size := cfg.ValSize
		if split == envs.Test {
			size = cfg.TestSize
		}
		ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, split), Size: size}
		path := filepath.Join(dir, run.CacheDir, SplitName(split)+".json")
		_, err := CachedReference(path, env, ds, NewSet(split, ds, envs.MustFacts(ds.Env.Task())).Insts, split == envs.Validation, new(atomic.Bool),
			func(int) {}, new(atomic.Int64), func(msg string) { warnings = append(warnings, msg) })
		if err != nil {
			t.Fatal(err)
		}
	}
	return referenceComputations.Load() - before, warnings
}

// tinyConfig is task at size n with the small validation and test sets of the trainer's tests.
func tinyConfig(task envs.Task, n int) run.Config {
	cfg := run.DefaultConfig(task, n)
	cfg.ValSize, cfg.TestSize = 12, 10
	return cfg
}

// TestSharedReferenceCache prepares a TSP run's sets twice with the same seeds in two directories: the
// second solves nothing. A shared entry made unreadable, or one whose solution was altered, is
// told and solved again.
func TestSharedReferenceCache(t *testing.T) {
	SetReferenceCache(t.TempDir())
	defer SetReferenceCache("")
	cfg := tinyConfig(envs.TaskTSP, 6)
	if solved, warn := cacheRun(t, cfg); solved != 2 || len(warn) != 0 {
		t.Fatalf("first run: %d reference sets solved, warnings %q; want 2 (val, test) and none", solved, warn)
	}
	if solved, warn := cacheRun(t, cfg); solved != 0 || len(warn) != 0 {
		t.Fatalf("second run: %d reference sets solved, warnings %q; want 0 and none", solved, warn)
	}

	val := cachedValPath(t, cfg)
	data, err := os.ReadFile(val)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(val, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if solved, warn := cacheRun(t, cfg); solved != 1 || len(warn) != 1 || !strings.Contains(warn[0], "unreadable") {
		t.Fatalf("truncated cache: %d reference sets solved, warnings %q; want 1 and one that says unreadable", solved, warn)
	}

	data, err = os.ReadFile(val)
	if err != nil {
		t.Fatal(err)
	}
	var ref Reference
	if err := run.ReadJSON(val, &ref); err != nil {
		t.Fatal(err)
	}
	ref.Best[3].Objective *= 0.9
	if err := run.WriteJSONAtomic(val, &ref); err != nil {
		t.Fatal(err)
	}
	if solved, warn := cacheRun(t, cfg); solved != 1 || len(warn) != 1 || !strings.Contains(warn[0], "instance 3") {
		t.Fatalf("altered cache: %d reference sets solved, warnings %q; want 1 and one naming instance 3", solved, warn)
	}
	if again, err := os.ReadFile(val); err != nil || string(again) != string(data) {
		t.Errorf("the altered entry was not rewritten as it was solved first (%v)", err)
	}
}

// cachedValPath returns the one shared-cache file of cfg's validation set, failing the test
// unless there is exactly one.
func cachedValPath(t *testing.T, cfg run.Config) string {
	t.Helper()
	root := referenceCache.Load()
	pattern := fmt.Sprintf("%s-n%d-seed%d-size%d-*.json", cfg.Task, cfg.N, envs.SplitSeed(cfg.Seed, envs.Validation), cfg.ValSize)
	matches, err := filepath.Glob(filepath.Join(*root, "references", pattern))
	if err != nil || len(matches) != 1 {
		t.Fatalf("cache files %s: %q (%v), want one", pattern, matches, err)
	}
	return matches[0]
}

// TestSharedReferenceCacheKeysData runs sort on two kinds of data with the same seeds and
// sizes: each solves its own sets without a warning, and a rerun of the first solves nothing
// (the second did not overwrite its entries).
func TestSharedReferenceCacheKeysData(t *testing.T) {
	SetReferenceCache(t.TempDir())
	defer SetReferenceCache("")
	perm, wide := tinyConfig(envs.TaskSort, 6), tinyConfig(envs.TaskSort, 6)
	perm.Data, wide.Data = "perm", "range:k=10"
	for _, c := range []struct {
		name   string
		cfg    run.Config
		solved int64
	}{{"perm", perm, 2}, {"range", wide, 2}, {"perm again", perm, 0}} {
		if solved, warn := cacheRun(t, c.cfg); solved != c.solved || len(warn) != 0 {
			t.Fatalf("%s: %d reference sets solved, warnings %q; want %d and none", c.name, solved, warn, c.solved)
		}
	}
}

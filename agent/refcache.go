package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"

	"spg-tui/envs"
	"spg-tui/run"
)

// referenceCache is the shared directory of exact references that runs with the same datasets
// reuse, "" (the default, as in tests) for none; the commands set it from --cache.
var referenceCache atomic.Pointer[string]

// referenceComputations counts the reference sets solved since the process started, so that a
// test can tell a cached start from a solving one without timing it.
var referenceComputations atomic.Int64

// SetReferenceCache makes the runs started from now on share exact references through dir
// ("" for none): a second run with the same task, size, seed and set size starts at once.
func SetReferenceCache(dir string) { referenceCache.Store(&dir) }

// sharedReferencePath is where the shared cache keeps the references of ds, whose instances
// hash to hash, "" without a cache. The name carries the hash's first 16 digits because task,
// size and seeds do not fix the instances: the data spec (sort's range or perm, gm's graphs)
// changes them too, and such sets must not evict each other.
func sharedReferencePath(ds envs.Dataset, hash string) string {
	root := referenceCache.Load()
	if root == nil || *root == "" {
		return ""
	}
	name := fmt.Sprintf("%s-n%d-seed%d-size%d-%.16s.json", ds.Env.Task(), ds.Env.N(), ds.Seed, ds.Size, hash)
	return filepath.Join(*root, "references", name)
}

// instancesHash is the SHA-256 of the instances' JSON, which ties a cached reference to the
// very instances it solved (a change of generator changes it).
func instancesHash(insts []envs.Instance) string {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(insts); err != nil {
		panic(err) // instances are plain numbers
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fits reports whether ref is the reference of ds as needed (with the baselines if asked).
func (ref *reference) fits(env envs.Env, ds envs.Dataset, baselines bool) bool {
	return ref.Task == env.Task() && ref.N == env.N() && ref.Seed == ds.Seed && ref.Size == ds.Size &&
		len(ref.Best) == ds.Size && len(ref.BestSolver) == ds.Size && (!baselines || ref.References != nil)
}

// check verifies a cached reference against insts: the hash of the instances, and each best
// solution a permutation whose objective is the one recorded.
func (ref *reference) check(env envs.Env, insts []envs.Instance, hash string) error {
	if ref.InstancesSHA256 != hash {
		return errors.New("it was solved for other instances")
	}
	n := env.N()
	for i, s := range ref.Best {
		seen := make([]bool, n)
		for _, v := range s.Perm {
			if v < 0 || v >= n || seen[v] {
				return fmt.Errorf("instance %d: its solution is not a permutation of %d", i, n)
			}
			seen[v] = true
		}
		if len(s.Perm) != n || math.Abs(env.Objective(insts[i], s.Perm)-s.Objective) > 1e-9*math.Max(1, math.Abs(s.Objective)) {
			return fmt.Errorf("instance %d: its solution does not have the recorded objective", i)
		}
	}
	return nil
}

// cachedReference returns the references of ds from the run directory's copy at runPath or
// else from the shared cache, verified against insts, or computes them (counting the instances
// solved in done) and writes both. A shared entry that cannot be used is told to note and
// solved again; a shared cache that cannot be written is told and skipped.
func cachedReference(runPath string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool,
	stop *atomic.Bool, done *atomic.Int64, note func(string)) (*reference, error) {
	hash := instancesHash(insts)
	var ref reference
	// A run directory's copy from before the hash existed is trusted, as it always was.
	if run.ReadJSON(runPath, &ref) == nil && ref.fits(env, ds, baselines) &&
		(ref.InstancesSHA256 == "" || ref.check(env, insts, hash) == nil) {
		return &ref, nil
	}
	shared := sharedReferencePath(ds, hash)
	if shared != "" {
		ref = reference{}
		err := run.ReadJSON(shared, &ref)
		switch {
		case err == nil && ref.fits(env, ds, baselines):
			if err = ref.check(env, insts, hash); err == nil {
				return &ref, writeReference(runPath, &ref)
			}
			note(fmt.Sprintf("the cached references %s are wrong (%v): solving them again", shared, err))
		case err == nil && baselines && ref.References == nil:
			// A test set's entry lacks the baselines a validation set needs: solve, and replace it.
		case err == nil:
			note(fmt.Sprintf("the cached references %s are of another set: solving them again", shared))
		case !errors.Is(err, fs.ErrNotExist):
			note(fmt.Sprintf("the cached references are unreadable (%v): solving them again", err))
		}
	}
	r, err := computeReference(env, ds.Seed, insts, baselines, stop, done)
	if err != nil {
		return nil, err
	}
	r.InstancesSHA256 = hash
	if shared != "" {
		if err := writeReference(shared, r); err != nil {
			note(fmt.Sprintf("the references could not be cached (%v)", err))
		}
	}
	return r, writeReference(runPath, r)
}

// writeReference writes ref to path atomically, making its directory.
func writeReference(path string, ref *reference) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return run.WriteJSONAtomic(path, ref)
}

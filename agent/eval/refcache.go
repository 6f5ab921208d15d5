package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
func (ref *Reference) fits(env envs.Env, ds envs.Dataset, baselines bool) bool {
	return ref.Task == env.Task() && ref.N == env.N() && ref.Seed == ds.Seed && ref.Size == ds.Size &&
		len(ref.Best) == ds.Size && len(ref.BestSolver) == ds.Size && (!baselines || ref.References != nil)
}

// CachedReference returns the references of ds from a cache (FindReference) or else solves
// them (SolveReference).
func CachedReference(runPath string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool,
	stop *atomic.Bool, begin func(solved int), done *atomic.Int64, note func(string)) (*Reference, error) {
	ref, err := FindReference(runPath, env, ds, insts, baselines, note)
	if ref != nil || err != nil {
		return ref, err
	}
	return SolveReference(runPath, env, ds, insts, baselines, stop, begin, done, note, nil)
}

// FindReference returns the references of ds from the run directory's copy at runPath or else
// from the shared cache (copying them to runPath), each checked against insts
// (reference.check); nil, nil when neither holds them and they must be solved. A copy or shared
// entry that is wrong or unreadable is told to note (one without a checksum, from an older
// version, quietly). It takes the time of reading and checking a file, never of a solve.
func FindReference(runPath string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool, note func(string)) (*Reference, error) {
	hash := instancesHash(insts)
	var ref Reference
	switch err := readReference(runPath, ds, &ref); {
	case err == nil && ref.fits(env, ds, baselines):
		err = ref.check(env, insts, hash)
		if err == nil {
			return &ref, nil
		}
		if !errors.Is(err, errUnsealed) {
			note(fmt.Sprintf("the run's references %s are wrong (%v): solving them again", runPath, err))
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		note(fmt.Sprintf("the run's references are unreadable (%v): solving them again", err))
	}
	shared := sharedReferencePath(ds, hash)
	if shared == "" {
		return nil, nil
	}
	ref = Reference{}
	err := readReference(shared, ds, &ref)
	switch {
	case err == nil && ref.fits(env, ds, baselines):
		err = ref.check(env, insts, hash)
		if err == nil {
			return &ref, writeReference(runPath, &ref)
		}
		if !errors.Is(err, errUnsealed) {
			note(fmt.Sprintf("the cached references %s are wrong (%v): solving them again", shared, err))
		}
	case err == nil && baselines && ref.References == nil:
		// A test set's entry lacks the baselines a validation set needs: solve, and replace it.
	case err == nil:
		note(fmt.Sprintf("the cached references %s are of another set: solving them again", shared))
	case !errors.Is(err, fs.ErrNotExist):
		note(fmt.Sprintf("the cached references are unreadable (%v): solving them again", err))
	}
	return nil, nil
}

// SolveReference computes the references of ds and writes them to runPath and the shared cache
// (solveReference: calling begin with the instances an earlier solve saved, and counting those
// solved in done), solving width() instances at a time (one per core when width is nil); a
// shared cache that cannot be written is told to note and skipped. The solve keeps its
// instances in the shared cache, where any run of the same sets finds them, else in the run's
// directory; it also reads the run's, kept by an attempt that ran with --cache off or another
// cache.
func SolveReference(runPath string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool,
	stop *atomic.Bool, begin func(solved int), done *atomic.Int64, note func(string), width func() int) (*Reference, error) {
	hash := instancesHash(insts)
	shared := sharedReferencePath(ds, hash)
	partials := []string{partialPath(runPath)}
	if shared != "" {
		partials = []string{partialPath(shared), partialPath(runPath)}
	}
	r, err := solveReference(partials, env, ds.Seed, insts, hash, baselines, stop, begin, done, note, width)
	if err != nil {
		return nil, err
	}
	if shared != "" {
		if err := writeReference(shared, r); err != nil {
			note(fmt.Sprintf("the references could not be cached (%v)", err))
		}
	}
	return r, writeReference(runPath, r)
}

// maxReferenceBytes bounds the file of the references of ds: its solutions written indented,
// one line per entry, with room to spare.
func maxReferenceBytes(ds envs.Dataset) int64 {
	return int64(ds.Size)*(int64(ds.Env.N())*32+1024) + 1<<20
}

// readReference decodes the references of ds at path, refusing a file that is not regular or
// is larger than they can be.
func readReference(path string, ds envs.Dataset, ref *Reference) error {
	return run.ReadJSONBounded(path, maxReferenceBytes(ds), ref)
}

// writeReference seals ref and writes it to path atomically, making its directory.
func writeReference(path string, ref *Reference) error {
	ref.seal()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return run.WriteJSONAtomic(path, ref)
}

// solveReference computes the references of insts (hashing to hash), keeping each instance
// at partials[0] as soon as it is solved, and continuing from the first of partials that holds
// kept instances: begin is called with their number before the solve. A partial file that
// fails its check is told to note and not used; references assembled with kept solutions are
// checked as a cached entry is (reference.check) and, if they fail, told and solved again from
// nothing. The files are removed once all is solved; one that cannot be written is told, and
// the solve goes on without it.
func solveReference(partials []string, env envs.Env, seed uint64, insts []envs.Instance, hash string, baselines bool,
	stop *atomic.Bool, begin func(solved int), done *atomic.Int64, note func(string), width func() int) (*Reference, error) {
	s := newReferenceSolve(env, seed, insts, baselines)
	s.width = width
	kept, from := 0, ""
	for _, p := range partials {
		n, err := s.restore(p, hash)
		if err == nil {
			kept, from = n, p
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			note(fmt.Sprintf("the references solved so far %s are damaged (%v): solving them again", p, err))
		}
	}
	target := partials[0]
	r, err := s.runKept(target, hash, kept, from == target, stop, begin, done, note)
	if err != nil {
		return nil, err
	}
	r.InstancesSHA256 = hash
	if kept > 0 {
		r.seal()
		if err := r.check(env, insts, hash); err != nil {
			note(fmt.Sprintf("the references continued from %s are wrong (%v): solving them all again", from, err))
			again := newReferenceSolve(env, seed, insts, baselines)
			again.width = width
			if r, err = again.runKept(target, hash, 0, false, stop, begin, done, note); err != nil {
				return nil, err
			}
			r.InstancesSHA256 = hash
		}
	}
	for _, p := range partials {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			note(fmt.Sprintf("the references solved so far could not be removed (%v)", err))
		}
	}
	return r, nil
}

// runKept calls begin with the kept instances, then solves the rest, appending each to the
// partial file at path: to the file as it is when appending (the kept instances came from it),
// else to a new one that first receives the kept instances.
func (s *referenceSolve) runKept(path, hash string, kept int, appending bool, stop *atomic.Bool, begin func(solved int),
	done *atomic.Int64, note func(string)) (*Reference, error) {
	w, err := s.openPartial(path, hash, !appending)
	if err != nil {
		note(fmt.Sprintf("the references solved so far cannot be kept (%v)", err))
	}
	begin(kept)
	if w == nil {
		return s.run(stop, done, nil)
	}
	// The workers keep the first write error for a single note after the solve, from this
	// goroutine: note need not be safe for concurrent use.
	var failed atomic.Pointer[error]
	keep := func(i int, sols []envs.Solution) {
		if err := w.keep(i, sols); err != nil {
			failed.CompareAndSwap(nil, &err)
		}
	}
	if !appending {
		s.each(keep)
	}
	r, err := s.run(stop, done, keep)
	if err := w.Close(); err != nil {
		failed.CompareAndSwap(nil, &err)
	}
	if e := failed.Load(); e != nil {
		note(fmt.Sprintf("the references solved so far could not all be kept (%v)", *e))
	}
	return r, err
}

package eval

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/internal/filetest"
	"spg-tui/run"
)

// refFixture is a validation set of task at size n whose references, with baselines, are solved
// and written to the shared cache (a fresh one, set for the test) at path.
type refFixture struct {
	env   envs.Env
	ds    envs.Dataset
	insts []envs.Instance
	path  string
	ref   *Reference
}

func newRefFixture(t *testing.T, task envs.Task, n, size int) *refFixture {
	t.Helper()
	SetReferenceCache(t.TempDir())
	t.Cleanup(func() { SetReferenceCache("") })
	env, err := envs.New(task, n)
	if err != nil {
		t.Fatal(err)
	}
	ds := envs.Dataset{Env: env, Seed: 7, Size: size}
	f := &refFixture{env: env, ds: ds, insts: NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task())).Insts}
	f.path = sharedReferencePath(ds, instancesHash(f.insts))
	f.ref, err = f.load(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// load reads the references as a run does (its own copy in a fresh directory, then the shared
// cache), adding its warnings to notes; solved says whether it solved them again.
func (f *refFixture) load(t *testing.T, notes *[]string) (*Reference, error) {
	t.Helper()
	return CachedReference(t.TempDir()+"/val.json", f.env, f.ds, f.insts, true, new(atomic.Bool), func(int) {}, new(atomic.Int64),
		func(msg string) {
			if notes != nil {
				*notes = append(*notes, msg)
			}
		})
}

// edit rewrites the shared entry with change applied, keeping its checksum unless reseal.
func (f *refFixture) edit(t *testing.T, reseal bool, change func(r *Reference)) {
	t.Helper()
	var r Reference
	if err := run.ReadJSON(f.path, &r); err != nil {
		t.Fatal(err)
	}
	change(&r)
	if reseal {
		r.seal()
	}
	if err := run.WriteJSONAtomic(f.path, &r); err != nil {
		t.Fatal(err)
	}
}

// expectResolved loads the edited entry: it must be solved again, to the first references,
// with one warning containing want.
func (f *refFixture) expectResolved(t *testing.T, what, want string) {
	t.Helper()
	before := referenceComputations.Load()
	var notes []string
	got, err := f.load(t, &notes)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if referenceComputations.Load() == before {
		t.Errorf("%s: the entry was used, not solved again", what)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], want) || strings.Contains(notes[0], "\n") {
		t.Errorf("%s: warnings %q, want one line with %q", what, notes, want)
	}
	if got.checksum() != f.ref.checksum() {
		t.Errorf("%s: solved again to other references", what)
	}
}

// TestFreshReferencesPassTheirCheck: what computeReference writes passes check for every task,
// exact or not (the greedy and random means re-derived to the bit), and a second load solves
// nothing.
func TestFreshReferencesPassTheirCheck(t *testing.T) {
	for _, c := range []struct {
		task envs.Task
		n    int
	}{{envs.TaskMWM, 6}, {envs.TaskSort, 6}, {envs.TaskTSP, 6}, {envs.TaskTSP, tsp.MaxHeldKarp + 2}, {envs.TaskGM, 5}} {
		f := newRefFixture(t, c.task, c.n, 6)
		if err := f.ref.check(f.env, f.insts, instancesHash(f.insts)); err != nil {
			t.Errorf("%s-%d: %v", c.task, c.n, err)
		}
		before := referenceComputations.Load()
		var notes []string
		if _, err := f.load(t, &notes); err != nil || len(notes) > 0 || referenceComputations.Load() != before {
			t.Errorf("%s-%d: second load solved again (%v, %q)", c.task, c.n, err, notes)
		}
	}
}

// TestReferenceCacheRefusesWhatItCannotTrust is issue 33's first reproduction and its kin: every
// field of a cache entry that used to be trusted as found is re-derived or bound by the checksum.
func TestReferenceCacheRefusesWhatItCannotTrust(t *testing.T) {
	f := newRefFixture(t, envs.TaskMWM, 6, 8)
	randomSols, err := envs.SolveAll(f.env, "random", f.insts, 1)
	if err != nil {
		t.Fatal(err)
	}
	f.edit(t, false, func(r *Reference) { copy(r.Best, randomSols) })
	f.expectResolved(t, "best replaced by random's", "greedy mean")

	f.edit(t, false, func(r *Reference) { r.References["greedy"] = 0.42 })
	f.expectResolved(t, "greedy set to 0.42", "its greedy mean 0.42 is not")

	f.edit(t, true, func(r *Reference) { r.References["greedy"] = 0.42 })
	f.expectResolved(t, "greedy set to 0.42, resealed", "its greedy mean 0.42 is not")

	f.edit(t, true, func(r *Reference) { r.References["random"] = 0.1 })
	f.expectResolved(t, "random changed, resealed", "its random mean 0.1 is not")

	f.edit(t, true, func(r *Reference) { r.References["optimal"] = 0.9 })
	f.expectResolved(t, "optimal changed", "its optimal mean 0.9 is not")

	f.edit(t, true, func(r *Reference) { delete(r.References, "greedy") })
	f.expectResolved(t, "a baseline dropped", "its baselines are")

	f.edit(t, true, func(r *Reference) { r.BestSolver[2] = "greedy" })
	f.expectResolved(t, "another solver claimed", `instance 2: its solution is said to be "greedy"'s`)

	f.edit(t, false, func(r *Reference) { r.Seed++ })
	f.expectResolved(t, "another seed", "of another set")

	f.edit(t, false, func(r *Reference) { r.Checksum = strings.Repeat("0", 64) })
	f.expectResolved(t, "checksum changed", "its checksum does not match")
}

// TestReferenceCacheKeepsTheGap: "exact": false on an exact TSP entry used to drop the gap
// silently; a classical solver's mean, which is not solved again, is bound by the checksum.
func TestReferenceCacheKeepsTheGap(t *testing.T) {
	f := newRefFixture(t, envs.TaskTSP, 6, 6)
	f.edit(t, false, func(r *Reference) { r.Exact = false })
	f.expectResolved(t, "exact false", "it says exact false, but tsp-6 has the exact solver exact")
	f.edit(t, true, func(r *Reference) { r.Exact = false })
	f.expectResolved(t, "exact false, resealed", "it says exact false")
	f.edit(t, false, func(r *Reference) { r.References["christofides"] *= 1.01 })
	f.expectResolved(t, "christofides changed", "its checksum does not match")
	f.edit(t, true, func(r *Reference) { r.References["2opt"] = r.References["optimal"] * 0.9 })
	f.expectResolved(t, "2opt shorter than the optimum", "its 2opt mean")
}

// TestReferenceCacheRefusesHugeOrSpecialEntries is issue 33's seventh: a 64 GB sparse entry
// (fatal out of memory) and a FIFO (a hang) are told in one line and solved again.
func TestReferenceCacheRefusesHugeOrSpecialEntries(t *testing.T) {
	f := newRefFixture(t, envs.TaskMWM, 6, 8)
	if err := os.Truncate(f.path, 64<<30); err != nil {
		t.Skipf("no sparse file: %v", err)
	}
	f.expectResolved(t, "64 GB entry", "is 64.0 GiB, more than the")

	os.Remove(f.path)
	filetest.FIFO(t, f.path)
	var notes []string
	err := filetest.Within(t, "loading a FIFO cache entry", func() error { _, err := f.load(t, &notes); return err })
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "is a named pipe, not a regular file") {
		t.Errorf("FIFO entry: %v, warnings %q", err, notes)
	}
}

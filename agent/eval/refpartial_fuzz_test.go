package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
)

// FuzzPartialReferences writes arbitrary bytes as the partial file of a small TSP set and
// solves the set from it as a run does: whatever the file holds, the run must get the
// references a fresh solve gives, with at most one warning of one line, and never panic.
func FuzzPartialReferences(f *testing.F) {
	env, _ := envs.New(envs.TaskTSP, 5)
	ds := envs.Dataset{Env: env, Seed: 5, Size: 4}
	insts := NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task())).Insts
	hash := instancesHash(insts)
	fresh, err := computeReference(env, ds.Seed, insts, true, new(atomic.Bool), new(atomic.Int64))
	if err != nil {
		f.Fatal(err)
	}
	fresh.InstancesSHA256 = hash
	fresh.seal()
	// A real partial file of two instances, as a stopped solve leaves it.
	s := newReferenceSolve(env, ds.Seed, insts, true)
	good := filepath.Join(f.TempDir(), "val.partial.json")
	w, err := s.openPartial(good, hash, true)
	if err != nil {
		f.Fatal(err)
	}
	for i := range 2 {
		if err := s.solve(i, func(i int, sols []envs.Solution) {
			if err := w.keep(i, sols); err != nil {
				f.Fatal(err)
			}
		}); err != nil {
			f.Fatal(err)
		}
	}
	w.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)-7])
	f.Add(append(bytes.Clone(data), data[bytes.IndexByte(data, '\n')+1:]...)) // every line twice
	f.Add([]byte(strings.Replace(string(data), `"index":1`, `"index":9`, 1)))
	f.Add([]byte(strings.Replace(string(data), `"perms":[[`, `"perms":[[7,`, 1)))
	f.Add([]byte("\x00\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "val.partial.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var notes []string
		got, err := solveReference([]string{path}, env, ds.Seed, insts, hash, true, new(atomic.Bool), func(int) {},
			new(atomic.Int64), func(m string) { notes = append(notes, m) }, nil)
		if err != nil {
			t.Fatal(err)
		}
		got.seal()
		if got.Checksum != fresh.Checksum {
			t.Fatalf("the references differ from a fresh solve's (warnings %q)", notes)
		}
		if len(notes) > 1 || len(notes) == 1 && strings.Contains(notes[0], "\n") {
			t.Fatalf("warnings %q, want at most one line", notes)
		}
	})
}

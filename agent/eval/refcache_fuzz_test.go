package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
)

// FuzzReferenceEntry writes arbitrary bytes as the shared cache entry of a small MWM set and
// loads it as a run does: whatever the entry holds, the run must use the references a fresh
// solve gives, with at most one warning of one line, and never panic.
func FuzzReferenceEntry(f *testing.F) {
	env, _ := envs.New(envs.TaskMWM, 4)
	ds := envs.Dataset{Env: env, Seed: 5, Size: 3}
	insts := NewSet(envs.Validation, ds, envs.MustFacts(ds.Env.Task())).Insts
	fresh, err := computeReference(env, ds.Seed, insts, true, new(atomic.Bool), new(atomic.Int64))
	if err != nil {
		f.Fatal(err)
	}
	fresh.InstancesSHA256 = instancesHash(insts)
	fresh.seal()
	good, _ := json.Marshal(fresh)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(strings.Replace(string(good), `"greedy":`, `"greedy":0.42,"x":`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"exact":true`, `"exact":false`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"perm":[`, `"perm":[9,`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"best_solver":["hungarian"`, `"best_solver":["random"`, 1)))
	f.Add([]byte(`{"task":"mwm","n":4,"seed":5,"size":3,"best":[{},{},{}],"best_solver":["","",""],"checksum":"x"}`))
	f.Add([]byte("\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		SetReferenceCache(root)
		defer SetReferenceCache("")
		path := sharedReferencePath(ds, fresh.InstancesSHA256)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var notes []string
		got, err := CachedReference(filepath.Join(root, "val.json"), env, ds, insts, true, new(atomic.Bool), func(int) {}, new(atomic.Int64),
			func(m string) { notes = append(notes, m) })
		if err != nil {
			t.Fatal(err)
		}
		if got.checksum() != fresh.checksum() {
			t.Fatalf("the run uses other references than a fresh solve's (warnings %q)", notes)
		}
		if len(notes) > 1 || len(notes) == 1 && strings.Contains(notes[0], "\n") {
			t.Fatalf("warnings %q, want at most one line", notes)
		}
	})
}

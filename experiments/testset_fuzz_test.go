package experiments

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"spg-tui/envs"
)

// FuzzTestSet writes arbitrary bytes as an experiment's MWM test set and loads it as scoring
// does: whatever the file holds, the set used must be the one computed fresh, with at most one
// warning of one line, and nothing may panic.
func FuzzTestSet(f *testing.F) {
	fresh, err := newTestSets(f.TempDir(), func(string) {}).get(envs.TaskMWM, 4, "", 3)
	if err != nil {
		f.Fatal(err)
	}
	good, _ := json.Marshal(fresh)
	f.Add(good)
	f.Add(good[:len(good)-9])
	f.Add([]byte(strings.Replace(string(good), `"optimum":[`, `"optimum":[0.5,`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"optimum":[`, `"optimum":[-1e308,`, 1)))
	f.Add([]byte(`{"task":"mwm","n":4,"seed":0,"size":3,"optimum":[1,2,3],"checksum":"00"}`))
	f.Add([]byte(`{"task":"tsp","n":4,"seed":0,"size":3,"solvers":{"exact":1}}`))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "testsets"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "testsets", fresh.Name()+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		var warns []string
		got, err := newTestSets(dir, func(m string) { warns = append(warns, m) }).get(envs.TaskMWM, 4, "", 3)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, fresh) {
			t.Fatalf("the set used is %+v, not the fresh %+v (warnings %q)", got, fresh, warns)
		}
		if len(warns) > 1 || len(warns) == 1 && strings.Contains(warns[0], "\n") {
			t.Fatalf("warnings %q, want at most one line", warns)
		}
	})
}

package experiments

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzManifest reads arbitrary bytes as a shard's manifest, as merge and the report do: a
// refusal is one line naming the file, and an accepted manifest's plan can be expanded again
// (or refused) without a panic.
func FuzzManifest(f *testing.F) {
	for _, s := range []string{
		`{"format":"spg-tui experiment","version":1,"preset":"penalty","seeds":1,"scale":0.01,"plan":"x","total":2,"shard":"0/2","runs_dir":"runs","runs":[{"id":"a","arm":0,"seed":1}]}`,
		`{"format":"spg-tui experiment","preset":"sizes","seeds":-1,"scale":1e308,"runs_dir":"/abs"}`,
		`{"format":"spg-tui experiment","preset":"nope","seeds":2,"scale":0,"models":["x"],"flags":{"n":"9223372036854775807"}}`,
		`{"format":"other"}`,
		"\x00\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(dir)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a refusal of more than one line: %q", err)
			}
			return
		}
		if m.Seeds >= 1 && m.Seeds <= 2 && m.Scale <= 0.05 {
			m.plan(dir) // expanding a large plan takes longer than a fuzz input should
		}
	})
}

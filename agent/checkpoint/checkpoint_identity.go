package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"spg-tui/run"
)

// RunID is a run's identity: the first 16 hex digits of the SHA-256 of the JSON of the
// configuration it started with, Steps aside (a resume may change the total).
func RunID(start run.Config) string {
	start.Steps = 0
	data, err := json.Marshal(start)
	if err != nil {
		panic(err) // a run.Config always marshals
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// CheckIdentity makes sure the checkpoint h (read from path) belongs to the run in dir and
// returns the configuration that run started with. With config.json present, its identity must
// match the checkpoint's (for checkpoints older than identities: the same task, n and seed).
// With config.json deleted, the checkpoint's starting configuration is returned with restore set,
// for the caller to write back once nothing else refuses the resume. Either way the identities
// the directory's records carry (its metrics' start events, its best checkpoint) must match too,
// so that a checkpoint copied in from another run never rewrites this one's files.
func CheckIdentity(dir, path string, h *Header) (start run.Config, restore bool, err error) {
	start, err = run.ReadRunConfig(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if h.Start == nil {
			return run.Config{}, false, fmt.Errorf("%s: %s is missing and %s is too old to carry the run's configuration", dir, run.ConfigFile, path)
		}
		start, restore = *h.Start, true
		start.Steps = h.Config.Steps
	case err != nil:
		return run.Config{}, false, err
	case h.RunID != "" && h.RunID != RunID(start):
		return run.Config{}, false, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d, configuration hash %s) than %s/%s (%s n = %d, seed %d, hash %s); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, h.RunID, dir, run.ConfigFile, start.Task, start.N, start.Seed, RunID(start))
	case h.RunID == "" && (h.Config.Task != start.Task || h.Config.N != start.N || h.Config.Seed != start.Seed):
		return run.Config{}, false, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d) than %s/%s (%s n = %d, seed %d); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, dir, run.ConfigFile, start.Task, start.N, start.Seed)
	}
	id := h.RunID
	if id == "" {
		id = RunID(start)
	}
	ids, err := run.MetricsRunIDs(dir)
	if err != nil {
		return run.Config{}, false, err
	}
	for _, other := range ids {
		if other != id {
			return run.Config{}, false, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d, configuration hash %s) than the records of %s/%s (hash %s); refusing to resume",
				path, h.Config.Task, h.Config.N, h.Config.Seed, id, dir, run.MetricsFile, other)
		}
	}
	best, err := Open(filepath.Join(dir, run.BestCheckpoint))
	if errors.Is(err, os.ErrNotExist) {
		return start, restore, nil
	}
	if err != nil {
		return run.Config{}, false, err
	}
	defer best.Close()
	if other := best.Header.RunID; other != "" && other != id {
		return run.Config{}, false, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d, configuration hash %s) than %s/%s (hash %s); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, id, dir, run.BestCheckpoint, other)
	}
	return start, restore, nil
}

// ReadStartConfig is the configuration the run in dir started with: its config.json or, when
// that is missing, the one its last checkpoint carries.
func ReadStartConfig(dir string) (run.Config, error) {
	cfg, err := run.ReadRunConfig(dir)
	if !errors.Is(err, os.ErrNotExist) {
		return cfg, err
	}
	ck, ckErr := Open(filepath.Join(dir, run.LastCheckpoint))
	if ckErr != nil {
		return cfg, err
	}
	defer ck.Close()
	if ck.Header.Start == nil {
		return cfg, err
	}
	return *ck.Header.Start, nil
}

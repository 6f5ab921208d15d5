package agent

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

// runID is a run's identity: the first 16 hex digits of the SHA-256 of the JSON of the
// configuration it started with, Steps aside (a resume may change the total).
func runID(start run.Config) string {
	start.Steps = 0
	data, err := json.Marshal(start)
	if err != nil {
		panic(err) // a run.Config always marshals
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// checkIdentity makes sure the checkpoint h (read from path) belongs to the run in dir and
// returns the configuration that run started with. With config.json present, its identity must
// match the checkpoint's (for checkpoints older than identities: the same task, n and seed).
// With config.json deleted, the checkpoint's starting configuration is written back to it.
func checkIdentity(dir, path string, h *checkpointHeader) (run.Config, error) {
	start, err := run.ReadRunConfig(dir)
	if errors.Is(err, os.ErrNotExist) {
		if h.Start == nil {
			return run.Config{}, fmt.Errorf("%s: %s is missing and %s is too old to carry the run's configuration", dir, run.ConfigFile, path)
		}
		start = *h.Start
		start.Steps = h.Config.Steps
		if err := run.WriteJSONAtomic(filepath.Join(dir, run.ConfigFile), start); err != nil {
			return run.Config{}, err
		}
		return start, nil
	}
	if err != nil {
		return run.Config{}, err
	}
	switch {
	case h.RunID != "" && h.RunID != runID(start):
		return run.Config{}, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d, configuration hash %s) than %s/%s (%s n = %d, seed %d, hash %s); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, h.RunID, dir, run.ConfigFile, start.Task, start.N, start.Seed, runID(start))
	case h.RunID == "" && (h.Config.Task != start.Task || h.Config.N != start.N || h.Config.Seed != start.Seed):
		return run.Config{}, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d) than %s/%s (%s n = %d, seed %d); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, dir, run.ConfigFile, start.Task, start.N, start.Seed)
	}
	return start, nil
}

// ReadStartConfig is the configuration the run in dir started with: its config.json or, when
// that is missing, the one its last checkpoint carries.
func ReadStartConfig(dir string) (run.Config, error) {
	cfg, err := run.ReadRunConfig(dir)
	if !errors.Is(err, os.ErrNotExist) {
		return cfg, err
	}
	ck, ckErr := openCheckpoint(filepath.Join(dir, run.LastCheckpoint))
	if ckErr != nil {
		return cfg, err
	}
	defer ck.Close()
	if ck.header.Start == nil {
		return cfg, err
	}
	return *ck.header.Start, nil
}

package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// runID is a run's identity: the first 16 hex digits of the SHA-256 of the JSON of the
// configuration it started with, Steps aside (a resume may change the total).
func runID(start Config) string {
	start.Steps = 0
	data, err := json.Marshal(start)
	if err != nil {
		panic(err) // a Config always marshals
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// checkIdentity makes sure the checkpoint h (read from path) belongs to the run in dir and
// returns the configuration that run started with. With config.json present, its identity must
// match the checkpoint's (for checkpoints older than identities: the same task, n and seed).
// With config.json deleted, the checkpoint's starting configuration is written back to it.
func checkIdentity(dir, path string, h *checkpointHeader) (Config, error) {
	start, err := ReadRunConfig(dir)
	if errors.Is(err, os.ErrNotExist) {
		if h.Start == nil {
			return Config{}, fmt.Errorf("%s: %s is missing and %s is too old to carry the run's configuration", dir, ConfigFile, path)
		}
		start = *h.Start
		start.Steps = h.Config.Steps
		if err := writeJSONAtomic(filepath.Join(dir, ConfigFile), start); err != nil {
			return Config{}, err
		}
		return start, nil
	}
	if err != nil {
		return Config{}, err
	}
	switch {
	case h.RunID != "" && h.RunID != runID(start):
		return Config{}, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d, configuration hash %s) than %s/%s (%s n = %d, seed %d, hash %s); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, h.RunID, dir, ConfigFile, start.Task, start.N, start.Seed, runID(start))
	case h.RunID == "" && (h.Config.Task != start.Task || h.Config.N != start.N || h.Config.Seed != start.Seed):
		return Config{}, fmt.Errorf("%s belongs to another run (%s n = %d, seed %d) than %s/%s (%s n = %d, seed %d); refusing to resume",
			path, h.Config.Task, h.Config.N, h.Config.Seed, dir, ConfigFile, start.Task, start.N, start.Seed)
	}
	return start, nil
}

// readStartConfig is the configuration the run in dir started with: its config.json or, when
// that is missing, the one its last checkpoint carries.
func readStartConfig(dir string) (Config, error) {
	cfg, err := ReadRunConfig(dir)
	if !errors.Is(err, os.ErrNotExist) {
		return cfg, err
	}
	ck, ckErr := openCheckpoint(filepath.Join(dir, LastCheckpoint))
	if ckErr != nil {
		return cfg, err
	}
	defer ck.Close()
	if ck.header.Start == nil {
		return cfg, err
	}
	return *ck.header.Start, nil
}

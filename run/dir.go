package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
)

// The files of a run directory.
const (
	// ConfigFile holds the run's configuration as it started (Steps is updated by a resume
	// that changes the total); live changes are saved with the checkpoints.
	ConfigFile = "config.json"
	// MetricsFile holds every record of the run, one JSON object per line.
	MetricsFile = "metrics.jsonl"
	// LogFile is the engine's log; the engine never writes to the terminal.
	LogFile = "train.log"
	// LastCheckpoint holds everything a resume needs: parameters, optimiser state, replay
	// buffer, RNG state, schedule and live changes.
	LastCheckpoint = "checkpoints/last"
	// BestCheckpoint holds the parameters with the best validation score so far.
	BestCheckpoint = "checkpoints/best"
	// ResultFile holds the test-set evaluation of a finished run.
	ResultFile = "result.json"
	// CacheDir holds the reference solutions of the validation and test sets.
	CacheDir = "cache"
)

// WriteAtomic replaces path with what fn writes, so that readers see the old content or the new,
// never a torn file: fn writes a temporary file in the same directory, which is synced and
// renamed over path, and the directory is synced. On any error path is left untouched.
func WriteAtomic(path string, fn func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// CreateTemp makes the file private; run files are as readable as any the user creates.
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = fn(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	// The rename is durable only once the directory entry is on disk.
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteJSONAtomic writes v as indented JSON to path, atomically.
func WriteJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}

// ReadJSON decodes the JSON file at path into v, refusing a file that is not regular or holds
// more than MaxJSONBytes (ReadJSONBounded).
func ReadJSON(path string, v any) error { return ReadJSONBounded(path, MaxJSONBytes, v) }

// ReadJSONBounded decodes the JSON file at path into v, refusing in one line a file that is not
// regular or holds more than max bytes before reading it.
func ReadJSONBounded(path string, max int64, v any) error {
	data, err := ReadFileBounded(path, max)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// ReadRunConfig reads the configuration of the run in dir (its config.json).
func ReadRunConfig(dir string) (Config, error) {
	var cfg Config
	err := ReadJSONBounded(filepath.Join(dir, ConfigFile), MaxConfigBytes, &cfg)
	return cfg, err
}

// CheckDirPath refuses a path that cannot be made a directory: one that names a file, or a
// symbolic link to nothing, or lies under one. Such a path is the user's mistake, so the error
// is a plain one naming it (not an I/O error); a path that is or can be a directory passes, and
// nothing is created.
func CheckDirPath(dir string) error {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			return notDirError(dir, p, "is a file, not a directory")
		case errors.Is(err, os.ErrNotExist):
			if target, lerr := os.Readlink(p); lerr == nil {
				return notDirError(dir, p, fmt.Sprintf("is a symbolic link to %s, which does not exist", target))
			}
		case !errors.Is(err, syscall.ENOTDIR):
			return nil // not the path's shape (a permission, say): the creation reports it
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// notDirError says that p, dir or one of its parents, cannot hold dir.
func notDirError(dir, p, why string) error {
	if p == filepath.Clean(dir) {
		return fmt.Errorf("%s %s", dir, why)
	}
	return fmt.Errorf("%s: %s %s", dir, p, why)
}

// MakeDir creates the run or experiment directory dir and its parents, refusing a path that
// cannot be a directory (see CheckDirPath) with a plain error.
func MakeDir(dir string) error {
	if err := CheckDirPath(dir); err != nil {
		return err
	}
	return os.MkdirAll(dir, 0o755)
}

// PrepareDir makes dir ready for a new run of cfg. It creates dir if needed; a non-empty dir
// is accepted only if it holds a run of the same configuration (Steps aside). It reports whether
// that run has a checkpoint to continue from.
func PrepareDir(dir string, cfg Config) (resumable bool, err error) {
	if err := MakeDir(dir); err != nil {
		return false, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	entries = slices.DeleteFunc(entries, func(e os.DirEntry) bool { return e.Name() == LockFile })
	if len(entries) > 0 {
		old, err := ReadRunConfig(dir)
		if err != nil {
			return false, fmt.Errorf("run directory %s is not empty and holds no run (%v); use another --out", dir, err)
		}
		if field := configDiff(old, cfg); field != "" {
			return false, fmt.Errorf("run directory %s holds a run with another configuration (%s differs); use --resume %s to continue it, or another --out", dir, field, dir)
		}
		if _, err := os.Stat(filepath.Join(dir, LastCheckpoint)); err == nil {
			return true, nil
		}
	}
	// A fresh start: an attempt that never checkpointed leaves nothing worth keeping.
	for _, name := range []string{MetricsFile, ResultFile, BestCheckpoint} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, err
		}
	}
	for _, sub := range []string{filepath.Dir(LastCheckpoint), CacheDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return false, err
		}
	}
	return false, WriteJSONAtomic(filepath.Join(dir, ConfigFile), cfg)
}

// configDiff names the first JSON field in which a and b differ, Steps aside; "" if none.
func configDiff(a, b Config) string {
	a.Steps, b.Steps = 0, 0
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return va.Type().Field(i).Tag.Get("json")
		}
	}
	return ""
}

// TruncateMetrics drops the lines of dir's metrics.jsonl made after step (a run that died after
// its last checkpoint), those of attempts that resumed at step and died before checkpointing
// (dropAbandonedAttempt), and every line ParseRecordLine refuses (a torn last line, a damaged
// one), so that a resume appends exactly where the checkpoint left off. The file is rewritten
// atomically, and only if something is dropped.
func TruncateMetrics(dir string, step int) error {
	path := filepath.Join(dir, MetricsFile)
	var kept [][]byte
	total := 0
	err := eachMetricsLine(path, func(line []byte) {
		total++
		if rec, ok := ParseRecordLine(line); ok && rec.Step <= step {
			kept = append(kept, bytes.Clone(line))
		}
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	kept = dropAbandonedAttempt(kept, step)
	if len(kept) == total {
		return nil
	}
	return WriteAtomic(path, func(w io.Writer) error {
		for _, line := range kept {
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}

// eachMetricsLine hands fn each line of the metrics file at path, a torn last one included,
// refusing a file that is not regular or a line longer than MaxRecordLine.
func eachMetricsLine(path string, fn func(line []byte)) error {
	f, err := OpenRegular(path, math.MaxInt64)
	if err != nil {
		return err
	}
	defer f.Close()
	lr := NewLineReader(f, path)
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		fn(line)
	}
	if rest := lr.Rest(); rest != nil {
		fn(rest)
	}
	return nil
}

// MetricsRunIDs are the distinct run identities that the start events of dir's metrics.jsonl
// carry, in order of appearance: none without the file or with records older than identities.
// Lines ParseRecordLine refuses are skipped, as a resume drops them.
func MetricsRunIDs(dir string) ([]string, error) {
	var ids []string
	err := eachMetricsLine(filepath.Join(dir, MetricsFile), func(line []byte) {
		if !bytes.Contains(line, []byte(`"run_id"`)) {
			return
		}
		rec, ok := ParseRecordLine(line)
		if ok && rec.Kind == KindEvent && rec.Event.Event == EventStart && rec.Event.RunID != "" && !slices.Contains(ids, rec.Event.RunID) {
			ids = append(ids, rec.Event.RunID)
		}
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return ids, err
}

// RemoveOrphans deletes the temporary files that WriteAtomic leaves behind when a process dies
// between creating and renaming them (a checkpoint's is as large as the replay buffer). It runs
// with the directory's lock held, so no live writer owns them.
func RemoveOrphans(dir string) error {
	for _, sub := range []string{".", filepath.Dir(LastCheckpoint), CacheDir} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if isAtomicTemp(e.Name()) && e.Type().IsRegular() {
				if err := os.Remove(filepath.Join(dir, sub, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
		}
	}
	return nil
}

// isAtomicTemp reports whether name is one of WriteAtomic's temporary names: "." + the target's
// name + ".tmp" + a random suffix.
func isAtomicTemp(name string) bool {
	i := strings.LastIndex(name, ".tmp")
	return strings.HasPrefix(name, ".") && i > 1 && len(name) > i+len(".tmp")
}

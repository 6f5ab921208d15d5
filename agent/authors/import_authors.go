package authors

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// authorsArray is one array of the authors' SPGMatchingActorV2 state dict as exported to .npz
// (float32, PyTorch names): its expected shape, where -1 is a padded width (the authors'
// max_n_nodes, 50 in their runs) that must be at least N, and the parameter it becomes.
type authorsArray struct {
	name  string
	shape []int
	param string
}

// authorsArrays lists the actor's arrays for hidden width h. The padded inputs of the GRU are
// zeros and the padded outputs of fc1 are cut off, so weight_ih's first N columns and fc1's first
// N rows are exactly the paper's actor for size N.
func authorsArrays(h int) []authorsArray {
	return []authorsArray{
		{"embedding.weight", []int{h, 2}, "emb.W"},
		{"embedding.bias", []int{h}, "emb.b"},
		{"gru.weight_ih_l0", []int{3 * h, -1}, "gru.Wih"},
		{"gru.weight_hh_l0", []int{3 * h, h}, "gru.Whh"},
		{"gru.bias_ih_l0", []int{3 * h}, "gru.bih"},
		{"gru.bias_hh_l0", []int{3 * h}, "gru.bhh"},
		{"fc1.weight", []int{-1, h}, "out.W"},
		{"fc1.bias", []int{-1}, "out.b"},
	}
}

// shapeString writes a shape as NumPy does, with ">=n" for a padded width.
func shapeString(shape []int, n int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		if d < 0 {
			parts[i] = fmt.Sprintf(">=%d", n)
		} else {
			parts[i] = fmt.Sprint(d)
		}
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// fits reports whether got matches want, a padded width (-1) taking any value >= n.
func fits(got, want []int, n int) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		if (w >= 0 && got[i] != w) || (w < 0 && got[i] < n) {
			return false
		}
	}
	return true
}

// readAuthorsActor reads the authors' actor from the .npz file at path into the actor parameter
// values of SPG+Matching at size n and hidden width h, keyed by parameter name in our layout
// (Linear weights transposed to (in, out)). An array that is missing, does not fit, is not
// float32 in C order, or whose data is not exactly its shape's is an error naming it.
func readAuthorsActor(path string, n, h int) (map[string][]float32, error) {
	zr, err := zip.OpenReader(path)
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return nil, err // no file, or one that cannot be read: "open x.npz: no such file or directory"
	case err != nil:
		return nil, fmt.Errorf("%s: not a NumPy .npz archive (%v)", path, err)
	}
	defer zr.Close()
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		k := strings.TrimSuffix(f.Name, ".npy")
		if files[k] != nil {
			return nil, fmt.Errorf("%s: array %q appears twice", path, k)
		}
		files[k] = f
	}
	out := map[string][]float32{}
	var fc1Rows int
	for _, a := range authorsArrays(h) {
		f := files[a.name]
		if f == nil {
			return nil, fmt.Errorf("%s: no array %q (want shape %s)", path, a.name, shapeString(a.shape, n))
		}
		fitsActor := func(got []int) error {
			if !fits(got, a.shape, n) {
				return fmt.Errorf("has shape %s, want %s", shapeString(got, n), shapeString(a.shape, n))
			}
			if a.name == "fc1.bias" && got[0] != fc1Rows {
				return fmt.Errorf("has shape %s, want (%d,)", shapeString(got, n), fc1Rows)
			}
			return nil
		}
		got, v, err := readNpyFloat32(f, fitsActor)
		if err != nil {
			return nil, fmt.Errorf("%s: array %q %v", path, a.name, err)
		}
		if a.name == "fc1.weight" {
			fc1Rows = got[0]
		}
		out[a.param] = authorsToOurs(a.param, v, got, n, h)
	}
	return out, nil
}

// authorsToOurs cuts and lays out one authors' array (row-major, shape got) as our parameter.
func authorsToOurs(param string, v []float32, got []int, n, h int) []float32 {
	switch param {
	case "emb.W": // (h, 2) -> (2, h)
		return transpose(v, h, 2)
	case "gru.Wih": // (3h, W) -> (3h, n): the first n columns
		w := got[1]
		out := make([]float32, 3*h*n)
		for i := range 3 * h {
			copy(out[i*n:(i+1)*n], v[i*w:i*w+n])
		}
		return out
	case "out.W": // (W, h) -> its first n rows, transposed to (h, n)
		return transpose(v[:n*h], n, h)
	case "out.b":
		return v[:n]
	}
	return v
}

// transpose returns the (cols, rows) transpose of the row-major (rows, cols) matrix v.
func transpose(v []float32, rows, cols int) []float32 {
	out := make([]float32, rows*cols)
	for i := range rows {
		for j := range cols {
			out[j*rows+i] = v[i*cols+j]
		}
	}
	return out
}

// ImportActor makes dir a run directory holding the authors' trained SPG+Matching actor
// (the .npz at in, see readAuthorsActor) with a critic freshly initialised from cfg.Seed, for
// task mwm at size cfg.N: config.json (ImportedFrom set, Steps 0), checkpoints/best (so that
// eval, the console's view and train --init read it like a trained run's), and the actor's
// scores on cfg's validation and test sets (metrics.jsonl, result.json), which it returns.
// dir must not exist or be empty; on any error nothing is left there.
func ImportActor(cfg run.Config, in, dir string) (val, test *run.Eval, err error) {
	if cfg.Task != envs.TaskMWM {
		return nil, nil, fmt.Errorf("task %s: the authors' actors are SPG+Matching, for mwm", cfg.Task)
	}
	cfg.Steps, cfg.Init, cfg.ImportedFrom = 0, "", in
	spec, err := run.Resolve(cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := run.CheckDirPath(dir); err != nil {
		return nil, nil, err
	}
	// A symbolic link to a directory is written through: the rename replaces its target.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, nil, fmt.Errorf("%s is not empty; import writes a new run directory", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	arrays, err := readAuthorsActor(in, cfg.N, cfg.Hidden)
	if err != nil {
		return nil, nil, err
	}
	l, err := learn.NewLearner(spec, nil) // on the CPU: import trains nothing
	if err != nil {
		return nil, nil, err
	}
	actor, ok := learn.ActorParams(l)
	if !ok {
		return nil, nil, fmt.Errorf("import: the learner of %s (%T) has no actor to write into", cfg.Model, l)
	}
	for i, s := range actor.Specs {
		copy(actor.Vals[i].Float32s(), arrays[s.Name])
	}
	// Everything goes to a sibling directory first, renamed into place at the end; those of
	// killed imports are deleted here.
	parent := filepath.Dir(filepath.Clean(dir))
	if err := run.RemoveLeftovers(parent, importTempPrefix); err != nil {
		return nil, nil, err
	}
	tmp, err := run.NewTempDir(parent, importTempPrefix)
	if err != nil {
		return nil, nil, err
	}
	defer tmp.Discard()
	if val, test, err = writeImportedRun(tmp.Path, spec, l); err != nil {
		return nil, nil, err
	}
	if err := tmp.Commit(dir); err != nil {
		return nil, nil, err
	}
	return val, test, nil
}

// importTempPrefix names the directory an import writes before renaming it into place.
const importTempPrefix = ".import-"

// writeImportedRun writes the run directory of an imported learner l into dir.
func writeImportedRun(dir string, cfg run.Spec, l learn.Learner) (val, test *run.Eval, err error) {
	for _, sub := range []string{filepath.Dir(run.BestCheckpoint), run.CacheDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, nil, err
		}
	}
	if err := run.WriteJSONAtomic(filepath.Join(dir, run.ConfigFile), cfg.Config); err != nil {
		return nil, nil, err
	}
	env, err := envs.NewData(cfg.Task, cfg.N, cfg.Data)
	if err != nil {
		return nil, nil, err
	}
	h := learn.HyperAt(&cfg, 0)
	evalSplit := func(split envs.Split, size int, extras bool) (*run.Eval, *eval.Set, error) {
		ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, split), Size: size}
		set := eval.NewSet(split, ds, cfg.Facts)
		ref, err := eval.LoadReference(filepath.Join(dir, run.CacheDir, eval.SplitName(split)+".json"), env, ds, set.Insts, extras, new(atomic.Bool))
		if err != nil {
			return nil, nil, err
		}
		set.Ref = ref
		ev, err := eval.Evaluate(l, env, set, h, extras)
		return ev, set, err
	}
	val, valSet, err := evalSplit(envs.Validation, cfg.ValSize, true)
	if err != nil {
		return nil, nil, err
	}
	val.Best = true
	head := &checkpoint.Header{Config: cfg.Config, Best: &checkpoint.BestEval{Step: 0, Metric: val.Metric}}
	state, err := l.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	if err := checkpoint.Write(filepath.Join(dir, run.BestCheckpoint), head, state, nil); err != nil {
		return nil, nil, err
	}
	if test, _, err = evalSplit(envs.Test, cfg.TestSize, false); err != nil {
		return nil, nil, err
	}
	recs := []run.Record{
		{Kind: run.KindEvent, Event: &run.Event{Event: run.EventStart, Message: "imported from " + cfg.ImportedFrom, References: valSet.Ref.References}},
		{Kind: run.KindEval, Eval: val},
		{Kind: run.KindEval, Eval: test},
		{Kind: run.KindEvent, Event: &run.Event{Event: run.EventDone, Message: fmt.Sprintf("imported actor: test %s %.6g", test.MetricName, test.Metric)}},
	}
	var lines []byte
	for _, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, nil, err
		}
		lines = append(append(lines, b...), '\n')
	}
	if err := run.WriteAtomic(filepath.Join(dir, run.MetricsFile), func(w io.Writer) error {
		_, err := w.Write(lines)
		return err
	}); err != nil {
		return nil, nil, err
	}
	return val, test, run.WriteJSONAtomic(filepath.Join(dir, run.ResultFile), run.Result{Test: test})
}

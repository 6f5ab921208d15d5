package authors

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sbinet/npyio/npy"

	"spg-tui/agent/eval"
	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// authorsFixture is one testdata/authors/fixture-mwmN.json: instances with M and the rounded
// matching from an independent PyTorch forward pass of the authors' actor.
type authorsFixture struct {
	N             int     `json:"n"`
	Tau           float64 `json:"tau"`
	SinkhornIters int     `json:"sinkhorn_iters"`
	Cases         []struct {
		A, B [][2]float64
		M    [][]float64
		Perm []int
	} `json:"cases"`
}

func authorsPath(name string) string { return filepath.Join("testdata", "authors", name) }

// TestAuthorsActorMatchesPyTorch: our forward pass over the imported weights reproduces the
// PyTorch fixtures' M to 1e-4 and their matchings exactly, at all three sizes.
func TestAuthorsActorMatchesPyTorch(t *testing.T) {
	for _, n := range []int{15, 20, 25} {
		var fx authorsFixture
		data, err := os.ReadFile(authorsPath("fixture-mwm" + strconv.Itoa(n) + ".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &fx); err != nil {
			t.Fatal(err)
		}
		cfg := run.DefaultConfig(envs.TaskMWM, n)
		if fx.N != n || fx.Tau != cfg.Tau || fx.SinkhornIters != cfg.SinkhornIters {
			t.Fatalf("fixture %d: n %d tau %g L %d, want the defaults", n, fx.N, fx.Tau, fx.SinkhornIters)
		}
		arrays, err := readAuthorsActor(authorsPath("actor-mwm"+strconv.Itoa(n)+".npz"), n, cfg.Hidden)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Batch = len(fx.Cases)
		cfg.Buffer = cfg.Batch
		l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		actor, ok := learn.ActorParams(l)
		if !ok {
			t.Fatalf("%T has no SPG actor", l)
		}
		for i, s := range actor.Specs {
			copy(actor.Vals[i].Float32s(), arrays[s.Name])
		}
		b, sl := len(fx.Cases), envs.MustFacts(envs.TaskMWM).StateLen(n)
		states := make([]float32, b*sl)
		for i, c := range fx.Cases {
			inst := envs.Instance{A: toPoints(c.A), B: toPoints(c.B)}
			envs.MustFacts(envs.TaskMWM).Featurize(inst, states[i*sl:(i+1)*sl])
		}
		m := make([]float32, b*n*n)
		if err := l.Act(states, b, learn.HyperAt(devtest.Spec(t, cfg), 0), m); err != nil {
			t.Fatal(err)
		}
		rowToCol := make([]int, b*n)
		if err := assign.RoundBatch(m, b, n, rowToCol); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i, c := range fx.Cases {
			for r := range n {
				for col := range n {
					worst = math.Max(worst, math.Abs(float64(m[i*n*n+r*n+col])-c.M[r][col]))
				}
			}
			p := make([]int, n)
			nets.ActionToPerm(rowToCol[i*n:(i+1)*n], p)
			if !slices.Equal(p, c.Perm) {
				t.Errorf("n %d case %d: perm %v, PyTorch %v", n, i, p, c.Perm)
			}
		}
		if worst > 1e-4 {
			t.Errorf("n %d: max |M - M_torch| = %.3g, want <= 1e-4", n, worst)
		}
		t.Logf("n %d: max |M - M_torch| = %.3g over %d instances", n, worst, b)
	}
}

func toPoints(p [][2]float64) []envs.Point {
	out := make([]envs.Point, len(p))
	for i, q := range p {
		out[i] = envs.Point(q)
	}
	return out
}

// TestReadAuthorsActorRefusesMisfits: a missing array or one of the wrong shape is refused,
// naming the array and both shapes.
func TestReadAuthorsActorRefusesMisfits(t *testing.T) {
	src := authorsPath("actor-mwm15.npz")
	if _, err := readAuthorsActor(src, 51, 128); err == nil ||
		!strings.Contains(err.Error(), `"gru.weight_ih_l0" has shape (384, 50), want (384, >=51)`) {
		t.Errorf("n = 51 above the padded width: %v", err)
	}
	if _, err := readAuthorsActor(src, 15, 64); err == nil ||
		!strings.Contains(err.Error(), `"embedding.weight" has shape (128, 2), want (64, 2)`) {
		t.Errorf("hidden 64: %v", err)
	}
	dir := t.TempDir()
	// rewrite copies src's arrays, dropping skip and writing replace's as flat arrays.
	rewrite := func(name, skip string, replace map[string][]float32) string {
		return copyNPZ(t, src, dir, name, func(key string, b []byte) []byte {
			if v, ok := replace[key]; ok {
				var buf bytes.Buffer
				if err := npy.Write(&buf, v); err != nil {
					t.Fatal(err)
				}
				return buf.Bytes()
			}
			if key == skip {
				return nil
			}
			return b
		})
	}
	if _, err := readAuthorsActor(rewrite("missing.npz", "fc1.bias", nil), 15, 128); err == nil ||
		!strings.Contains(err.Error(), `no array "fc1.bias" (want shape (>=15,))`) {
		t.Errorf("missing fc1.bias: %v", err)
	}
	if _, err := readAuthorsActor(rewrite("short.npz", "", map[string][]float32{"fc1.bias": make([]float32, 10)}), 15, 128); err == nil ||
		!strings.Contains(err.Error(), `"fc1.bias" has shape (10,), want (>=15,)`) {
		t.Errorf("short fc1.bias: %v", err)
	}
	if _, err := readAuthorsActor(rewrite("flat.npz", "", map[string][]float32{"gru.weight_hh_l0": make([]float32, 384*128)}), 15, 128); err == nil ||
		!strings.Contains(err.Error(), `"gru.weight_hh_l0" has shape (49152,), want (384, 128)`) {
		t.Errorf("flat gru.weight_hh_l0: %v", err)
	}
	if _, err := readAuthorsActor(rewrite("biaslen.npz", "", map[string][]float32{"fc1.bias": make([]float32, 40)}), 15, 128); err == nil ||
		!strings.Contains(err.Error(), `"fc1.bias" has shape (40,), want (50,)`) {
		t.Errorf("fc1.bias shorter than fc1.weight: %v", err)
	}
}

// TestImportAuthorsActor: the imported run directory evaluates like a trained run, a bad file
// leaves nothing behind, and a non-empty directory is refused.
func TestImportAuthorsActor(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 15)
	cfg.ValSize, cfg.TestSize = 200, 200
	dir := filepath.Join(t.TempDir(), "imported")
	val, test, err := ImportActor(cfg, authorsPath("actor-mwm15.npz"), dir)
	if err != nil {
		t.Fatal(err)
	}
	// The authors' MWM-15 actor scores about 0.945; a fresh actor about 0.71.
	if val.Metric < 0.93 || test.Metric < 0.93 {
		t.Errorf("imported actor: validation %.4f, test %.4f, want > 0.93", val.Metric, test.Metric)
	}
	got, err := run.ReadRunConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.ImportedFrom != authorsPath("actor-mwm15.npz") || got.Steps != 0 {
		t.Errorf("config: imported_from %q, steps %d", got.ImportedFrom, got.Steps)
	}
	pol, err := eval.LoadPolicy(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := envs.New(envs.TaskMWM, 15)
	ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, envs.Test), Size: cfg.TestSize}
	insts := make([]envs.Instance, ds.Size)
	for i := range insts {
		insts[i] = ds.At(i)
	}
	sols, err := pol.Solve(env, insts)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil || len(recs) != 4 {
		t.Fatalf("metrics: %d records, %v", len(recs), err)
	}
	opt := make([]float64, len(insts))
	sum := 0.0
	for i, inst := range insts {
		p, _ := env.Solve("hungarian", inst, nil)
		opt[i] = env.Objective(inst, p)
		sum += sols[i].Objective / opt[i]
	}
	if d := math.Abs(sum/float64(len(insts)) - test.Metric); d > 1e-9 {
		t.Errorf("LoadPolicy's test ratio differs from the import's by %g", d)
	}
	if _, _, err := ImportActor(cfg, authorsPath("actor-mwm15.npz"), dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("import into a non-empty directory: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if _, _, err := ImportActor(run.DefaultConfig(envs.TaskMWM, 60), authorsPath("actor-mwm15.npz"), bad); err == nil {
		t.Error("n = 60 above the padded width 50 was accepted")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a refused import left %s behind (%v)", bad, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(bad))
	if len(entries) != 0 {
		t.Errorf("a refused import left %d entries beside %s", len(entries), bad)
	}
}

// npzWithEntry writes a copy of src into dir/name with array key's .npy bytes replaced by what
// edit makes of them.
func npzWithEntry(t *testing.T, src, dir, name, key string, edit func([]byte) []byte) string {
	t.Helper()
	return copyNPZ(t, src, dir, name, func(k string, b []byte) []byte {
		if k == key {
			return edit(b)
		}
		return b
	})
}

// copyNPZ writes a copy of the .npz src into dir/name in which each array's .npy bytes are what
// edit makes of them (key the array's name); an array that edit makes nil is left out.
func copyNPZ(t *testing.T, src, dir, name string, edit func(key string, b []byte) []byte) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		b = edit(strings.TrimSuffix(e.Name, ".npy"), b)
		if b == nil {
			continue
		}
		w, err := zw.Create(e.Name)
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// npyHeaderOf replaces the header of the version 1.0 .npy file b by head.
func npyHeaderOf(b []byte, head string) []byte {
	old := int(binary.LittleEndian.Uint16(b[8:10]))
	out := append([]byte(nil), b[:8]...)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(head)))
	return append(append(out, head...), b[10+old:]...)
}

// padded is the header NumPy writes for dict: spaces and a newline to a multiple of 64 bytes.
func padded(dict string) string { return dict + strings.Repeat(" ", 63-(10+len(dict))%64) + "\n" }

// TestReadAuthorsActorRefusesDamagedArrays: an array whose data is shorter or longer than its
// header's shape, a header without its keys, Fortran order and another dtype are each refused
// with an error naming the array and what is wrong, never a panic or wrong weights.
func TestReadAuthorsActorRefusesDamagedArrays(t *testing.T) {
	src, dir := authorsPath("actor-mwm15.npz"), t.TempDir()
	const hh = "gru.weight_hh_l0" // (384, 128) float32: 196,608 bytes of data
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"cut", func(b []byte) []byte { return b[:len(b)-1000] }, `"gru.weight_hh_l0" holds 195608 bytes of data, but its header's shape (384, 128) of float32 needs 196608`},
		{"kept16", func(b []byte) []byte { return b[:len(b)-196608+16] }, "holds 16 bytes of data"},
		{"longer", func(b []byte) []byte { return append(b, 0, 0, 0, 0) }, "holds 196612 bytes of data"},
		{"empty-header", func(b []byte) []byte { return npyHeaderOf(b, "{}") }, `"gru.weight_hh_l0" has a bad header: "{}" lacks 'descr', 'fortran_order', 'shape'`},
		{"padded-empty-header", func(b []byte) []byte { return npyHeaderOf(b, padded("{}")) }, `has a bad header: "{}" lacks`},
		{"fortran", func(b []byte) []byte {
			return npyHeaderOf(b, padded("{'descr': '<f4', 'fortran_order': True, 'shape': (384, 128), }"))
		}, `"gru.weight_hh_l0" is stored in Fortran order (fortran_order: True)`},
		{"float64", func(b []byte) []byte {
			return npyHeaderOf(b, padded("{'descr': '<f8', 'fortran_order': False, 'shape': (384, 64), }"))
		}, `"gru.weight_hh_l0" is of dtype "<f8", want little-endian float32`},
		{"no-magic", func(b []byte) []byte { return b[:5] }, "is not a NumPy .npy file"},
	} {
		path := npzWithEntry(t, src, dir, tc.name+".npz", hh, tc.edit)
		if _, err := readAuthorsActor(path, 15, 128); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	// The parser takes what NumPy writes: a trailing comma or none, spaces, a 1-tuple.
	for _, dict := range []string{"{'descr': '<f4', 'fortran_order': False, 'shape': (384, 128)}",
		`{"shape":(384,128),"fortran_order":False,"descr":"<f4"}`} {
		path := npzWithEntry(t, src, dir, "ok.npz", hh, func(b []byte) []byte { return npyHeaderOf(b, padded(dict)) })
		if _, err := readAuthorsActor(path, 15, 128); err != nil {
			t.Errorf("header %s: %v", dict, err)
		}
	}
}

// TestImportRemovesLeftovers: the directories killed imports left beside the destination are
// deleted by the next import; a live import's is not.
func TestImportRemovesLeftovers(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 15)
	cfg.ValSize, cfg.TestSize = 20, 20
	parent := t.TempDir()
	// An import killed at once leaves an empty directory (later, one marked as a copy, which
	// run's tests cover; an unmarked one that is not empty is refused, never deleted).
	dead := filepath.Join(parent, ".import-1234")
	if err := os.Mkdir(dead, 0o700); err != nil {
		t.Fatal(err)
	}
	live, err := run.NewTempDir(parent, importTempPrefix)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Discard()
	mine := filepath.Join(parent, ".import-mine") // not a name import makes
	if err := os.Mkdir(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ImportActor(cfg, authorsPath("actor-mwm15.npz"), filepath.Join(parent, "run")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{dead: false, live.Path: true, mine: true, filepath.Join(parent, "run", run.ConfigFile): true} {
		if _, err := os.Stat(path); (err == nil) != want {
			t.Errorf("%s: exists %v after the import, want %v", path, err == nil, want)
		}
	}
}

package cuda

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openOrSkip opens the first GPU with src compiled, or skips the test in one line where no
// driver loads or it finds no GPU (CI and CPU machines) unless RequireGPUEnv is set
// (tools/gpu-check.sh).
func openOrSkip(t *testing.T, src string, kernels ...string) Device {
	t.Helper()
	d, err := Open(Options{Source: src, Kernels: kernels, CacheDir: t.TempDir()})
	if Absent(err) && os.Getenv(RequireGPUEnv) == "" {
		t.Skipf("no GPU: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// TestOpenRefusal: where no driver loads, Open says so in one line that wraps ErrNoDriver;
// with the library path pointed at an empty folder it still looks on the loader's path.
func TestOpenRefusal(t *testing.T) {
	t.Setenv(LibEnv, t.TempDir())
	d, err := Open(Options{})
	if err == nil {
		d.Close()
		t.Skip("a CUDA driver loaded: the refusal is for machines without one")
	}
	if !errors.Is(err, ErrNoDriver) {
		t.Fatalf("error %v does not wrap ErrNoDriver", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "libcuda.so.1") {
		t.Fatalf("refusal %q: want one line naming libcuda.so.1", msg)
	}
}

func TestCheckGemm(t *testing.T) {
	buf := func(n int) Buf { return Buf{Ptr: 4096, N: n} }
	for _, c := range []struct {
		name       string
		tA, tB     bool
		m, n, k    int
		a, b, cc   int
		lda, ldb   int
		ldc, count int
		sa, sb, sc int
		ok         bool
	}{
		{"exact", false, false, 2, 3, 4, 8, 12, 6, 4, 3, 3, 1, 0, 0, 0, true},
		{"a short", false, false, 2, 3, 4, 7, 12, 6, 4, 3, 3, 1, 0, 0, 0, false},
		{"trans a", true, false, 2, 3, 4, 8, 12, 6, 2, 3, 3, 1, 0, 0, 0, true},
		{"trans a lda small", true, false, 2, 3, 4, 8, 12, 6, 1, 3, 3, 1, 0, 0, 0, false},
		{"trans b short", false, true, 2, 3, 4, 8, 11, 6, 4, 4, 3, 1, 0, 0, 0, false},
		{"batched", false, false, 2, 3, 4, 16, 24, 12, 4, 3, 3, 2, 8, 12, 6, true},
		{"batched c short", false, false, 2, 3, 4, 16, 24, 11, 4, 3, 3, 2, 8, 12, 6, false},
		{"zero size", false, false, 0, 3, 4, 8, 12, 6, 4, 3, 3, 1, 0, 0, 0, false},
	} {
		err := CheckGemm(c.tA, c.tB, c.m, c.n, c.k, buf(c.a), c.lda, buf(c.b), c.ldb, buf(c.cc), c.ldc, c.sa, c.sb, c.sc, c.count)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
		}
	}
}

func TestBufAt(t *testing.T) {
	b := Buf{Ptr: 1000, N: 10}
	if s := b.At(2, 8); s.Ptr != 1008 || s.N != 8 {
		t.Fatalf("At(2, 8) = %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("At past the end did not panic")
		}
	}()
	b.At(3, 8)
}

// TestPTXCache: an entry comes back as stored; a truncated, NUL-less, oversized or
// non-regular entry is not trusted.
func TestPTXCache(t *testing.T) {
	c := ptxCache{dir: t.TempDir()}
	key := c.key("src", "compute_90", "13000")
	if key == c.key("src", "compute_80", "13000") || key == c.key("src2", "compute_90", "13000") {
		t.Fatal("the key ignores the source or the architecture")
	}
	if _, ok := c.get(key); ok {
		t.Fatal("empty cache returned an entry")
	}
	ptx := []byte(".version 8.0\n.entry k()\n{ ret; }\n\x00")
	c.put(key, ptx)
	if got, ok := c.get(key); !ok || string(got) != string(ptx) {
		t.Fatalf("get after put: %q, %v", got, ok)
	}
	p := filepath.Join(c.dir, key)
	for name, body := range map[string][]byte{"no NUL": ptx[:len(ptx)-1], "no entry": []byte("garbage\x00")} {
		os.WriteFile(p, body, 0o644)
		if _, ok := c.get(key); ok {
			t.Errorf("%s: entry trusted", name)
		}
	}
	os.Remove(p)
	os.Mkdir(p, 0o755)
	if _, ok := c.get(key); ok {
		t.Error("a directory was read as an entry")
	}
}

// testSource is a kernel for the device tests: y[i] += a x[i].
const testSource = `extern "C" __global__ void axpy(float *y, const float *x, float a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] += a * x[i];
}`

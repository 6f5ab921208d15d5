package cuda

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
)

// randFloats returns n uniform values in [-1, 1).
func randFloats(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 2*rng.Float32() - 1
	}
	return v
}

// upload allocates a device buffer holding v.
func upload(t *testing.T, d Device, v []float32) Buf {
	t.Helper()
	b, err := d.Alloc(len(v))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Upload(b, v); err != nil {
		t.Fatal(err)
	}
	return b
}

// download returns the first n values of b.
func download(t *testing.T, d Device, b Buf, n int) []float32 {
	t.Helper()
	v := make([]float32, n)
	if err := d.Download(v, b); err != nil {
		t.Fatal(err)
	}
	return v
}

// closeTo fails unless got and want agree within tol relative to want's largest magnitude.
func closeTo(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	scale := 1.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(float64(w)))
	}
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); !(d <= tol*scale) {
			t.Fatalf("%s[%d] = %v, want %v (scale %v)", what, i, got[i], want[i], scale)
		}
	}
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// TestDeviceSgemm: every transpose pair, odd shapes and padded leading dimensions against the
// CPU's backend.Gemm.
func TestDeviceSgemm(t *testing.T) {
	d := openOrSkip(t, "")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range [][3]int{{1, 1, 1}, {7, 5, 3}, {64, 33, 129}, {300, 128, 384}} {
		m, n, k := s[0], s[1], s[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				ar, ac := m, k
				if tA {
					ar, ac = k, m
				}
				br, bc := k, n
				if tB {
					br, bc = n, k
				}
				lda, ldb, ldc := ac+1, bc+2, n+3
				a, b, c := randFloats(rng, ar*lda), randFloats(rng, br*ldb), randFloats(rng, m*ldc)
				want := append([]float32(nil), c...)
				backend.Gemm(trans(tA), trans(tB), m, n, k, 0.5, a, lda, b, ldb, 0.25, want, ldc)
				da, db, dc := upload(t, d, a), upload(t, d, b), upload(t, d, c)
				if err := d.Sgemm(tA, tB, m, n, k, 0.5, da, lda, db, ldb, 0.25, dc, ldc); err != nil {
					t.Fatal(err)
				}
				closeTo(t, "c", download(t, d, dc, len(c)), want, 1e-5)
				for _, x := range []Buf{da, db, dc} {
					d.Free(x)
				}
			}
		}
	}
}

// TestDeviceSgemmStrided: a batch of products equals the products one by one.
func TestDeviceSgemmStrided(t *testing.T) {
	d := openOrSkip(t, "")
	rng := rand.New(rand.NewPCG(3, 4))
	const count, m, n, k = 9, 20, 20, 128
	a, b, c := randFloats(rng, count*m*k), randFloats(rng, count*n*k), make([]float32, count*m*n)
	want := append([]float32(nil), c...)
	for i := 0; i < count; i++ {
		backend.Gemm(blas.NoTrans, blas.Trans, m, n, k, 1, a[i*m*k:], k, b[i*n*k:], k, 0, want[i*m*n:], n)
	}
	da, db, dc := upload(t, d, a), upload(t, d, b), upload(t, d, c)
	if err := d.SgemmStrided(false, true, m, n, k, 1, da, k, m*k, db, k, n*k, 0, dc, n, m*n, count); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "c", download(t, d, dc, len(c)), want, 1e-5)
}

// TestDeviceLaunch runs a compiled kernel, and refuses unknown kernels and argument types.
func TestDeviceLaunch(t *testing.T) {
	d := openOrSkip(t, testSource, "axpy")
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1000
	x, y := randFloats(rng, n), randFloats(rng, n)
	want := make([]float32, n)
	for i := range want {
		want[i] = y[i] + 3*x[i]
	}
	dx, dy := upload(t, d, x), upload(t, d, y)
	if err := d.Launch("axpy", D1((n+255)/256), D1(256), dy, dx, float32(3), n); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "y", download(t, d, dy, n), want, 1e-6)
	if err := d.Launch("nope", D1(1), D1(1)); err == nil {
		t.Error("an unknown kernel launched")
	}
	if err := d.Launch("axpy", D1(1), D1(1), dy, dx, "3", n); err == nil {
		t.Error("a string argument was passed")
	}
	if err := d.Launch("axpy", D1(1), D1(2048), dy, dx, float32(3), n); err == nil {
		t.Error("2,048 threads a block were launched")
	}
}

// TestDeviceLaunchCount: a launch, a product and a batched product count one each; a refused
// launch or product counts none.
func TestDeviceLaunchCount(t *testing.T) {
	d := openOrSkip(t, testSource, "axpy")
	x := upload(t, d, make([]float32, 16))
	before := d.Launches()
	if err := errors.Join(d.Launch("axpy", D1(1), D1(16), x, x, float32(1), 16),
		d.Sgemm(false, false, 2, 2, 2, 1, x, 2, x, 2, 0, x.At(8, 4), 2),
		d.SgemmStrided(false, false, 1, 2, 2, 1, x, 2, 2, x, 2, 0, 0, x.At(8, 8), 2, 4, 2)); err != nil {
		t.Fatal(err)
	}
	d.Launch("axpy", D1(1), D1(2048), x, x, float32(1), 16)
	d.Sgemm(false, false, 2, 2, 64, 1, x, 64, x, 2, 0, x, 2)
	if got := d.Launches() - before; got != 3 {
		t.Fatalf("%d launches counted, want 3", got)
	}
}

// TestDeviceMemory: Alloc zeroes, copies are bounded, sizes are checked.
func TestDeviceMemory(t *testing.T) {
	d := openOrSkip(t, "")
	b, err := d.Alloc(10)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range download(t, d, b, 10) {
		if v != 0 {
			t.Fatalf("Alloc left %v at %d", v, i)
		}
	}
	if err := d.Upload(b, make([]float32, 11)); err == nil {
		t.Error("an upload past the end was accepted")
	}
	if err := d.Download(make([]float32, 11), b); err == nil {
		t.Error("a download past the end was accepted")
	}
	if _, err := d.Alloc(0); err == nil {
		t.Error("Alloc(0) was accepted")
	}
	if d.Name() == "" {
		t.Error("no device name")
	}
}

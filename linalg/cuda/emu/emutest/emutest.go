// Package emutest runs tests of GPU code on the emulator: one emulator per test binary,
// compiled in a temporary directory, and helpers to move data and compare results.
package emutest

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu"
	"spg-tui/linalg/cuda/kernels"
)

// dev is the emulator of the test binary; devErr is why it did not open.
var (
	dev    *emu.Device
	devErr error
)

// Main opens the emulator in a temporary directory, with every launch checked for races
// (emu.Device.CheckOrder), runs the tests and removes the directory. Call it from TestMain.
func Main(m *testing.M) { os.Exit(run(m, false)) }

// MainCoverAll is Main that also fails, naming them, where some kernels of
// linalg/cuda/kernels were never launched, when every test ran (no -run or -skip) and passed:
// every kernel must be tested on the emulator.
func MainCoverAll(m *testing.M) { os.Exit(run(m, true)) }

// run is Main's body; it returns the exit code.
func run(m *testing.M, cover bool) int {
	dir, err := os.MkdirTemp("", "spg-emu-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	dev, devErr = emu.OpenIn(dir)
	if dev != nil {
		dev.CheckOrder(true)
		defer dev.Close()
	}
	code := m.Run()
	if code != 0 || !cover || dev == nil || flagSet("test.run") || flagSet("test.skip") {
		return code
	}
	ks, err := kernels.List()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var missing []string
	for _, k := range ks {
		if !dev.Launched(k.Name) {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "emutest: no test launched the kernels %s\n", strings.Join(missing, ", "))
		return 1
	}
	return 0
}

// flagSet reports whether the go test flag name has a non-empty value.
func flagSet(name string) bool {
	f := flag.Lookup(name)
	return f != nil && f.Value.String() != ""
}

// Device returns the emulator, skipping the test where no C++ compiler is found.
func Device(t testing.TB) *emu.Device {
	t.Helper()
	if devErr != nil {
		if strings.Contains(devErr.Error(), "no C++ compiler") {
			t.Skip(devErr)
		}
		t.Fatal(devErr)
	}
	if dev == nil {
		t.Fatal("emutest: call emutest.Main from TestMain")
	}
	return dev
}

// Upload allocates a device buffer holding v (at least one element); it is freed when the
// test ends.
func Upload(t testing.TB, v []float32) cuda.Buf {
	t.Helper()
	return UploadTo(t, Device(t), v)
}

// UploadTo is Upload on device d (the emulator or a GPU).
func UploadTo(t testing.TB, d cuda.Device, v []float32) cuda.Buf {
	t.Helper()
	b, err := d.Alloc(max(len(v), 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Free(b) })
	if err := d.Upload(b, v); err != nil {
		t.Fatal(err)
	}
	return b.At(0, len(v))
}

// Zeros allocates a zeroed device buffer of n.
func Zeros(t testing.TB, n int) cuda.Buf { return Upload(t, make([]float32, n)) }

// Download returns the contents of b.
func Download(t testing.TB, b cuda.Buf) []float32 {
	t.Helper()
	return DownloadFrom(t, Device(t), b)
}

// DownloadFrom is Download from device d.
func DownloadFrom(t testing.TB, d cuda.Device, b cuda.Buf) []float32 {
	t.Helper()
	v := make([]float32, b.N)
	if err := d.Download(v, b); err != nil {
		t.Fatal(err)
	}
	return v
}

// GPU opens the first GPU with the project's kernels, for a test that checks a layer on a
// real GPU too, and closes it when the test ends. Where none opens the test is skipped, unless
// cuda.RequireGPUEnv is set (tools/gpu-check.sh): then it fails.
func GPU(t testing.TB) cuda.Device {
	t.Helper()
	names, err := kernels.Names()
	if err != nil {
		t.Fatal(err)
	}
	g, err := cuda.Open(cuda.Options{Source: kernels.Source(), Kernels: names})
	if cuda.Absent(err) && os.Getenv(cuda.RequireGPUEnv) == "" {
		t.Skipf("no GPU: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// Launch runs a kernel, failing the test on an error.
func Launch(t testing.TB, name string, grid, block cuda.Dim3, args ...any) {
	t.Helper()
	if err := Device(t).Launch(name, grid, block, args...); err != nil {
		t.Fatal(err)
	}
}

// Normals returns n standard normal values times scale.
func Normals(rng *rand.Rand, n int, scale float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * scale)
	}
	return v
}

// SameBits fails unless got and want are equal bit for bit.
func SameBits(t testing.TB, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v, want %v exactly", what, i, got[i], want[i])
		}
	}
}

// Near fails unless |got - want| <= tol (scale + |want|) + 1e-6 everywhere, scale being the
// largest |want|: a tolerance relative to the values' size, so that small entries of a
// gradient are not held to a tighter bound than its rounding allows, nor a small gradient to a
// looser one. The 1e-6 is the rounding noise of a sum of O(1) float32 terms that cancel (a
// gradient that is zero in exact arithmetic, as a bias before Sinkhorn's column steps).
func Near(t testing.TB, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, w := range want {
		scale = max(scale, math.Abs(float64(w)))
	}
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if !(math.Abs(g-w) <= tol*(scale+math.Abs(w))+1e-6) {
			t.Fatalf("%s[%d] = %v, want %v (tolerance %g, scale %g)", what, i, g, w, tol, scale)
		}
	}
}

package kernels_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu"
)

// dev is the emulator every kernel test runs on, compiled once per test binary in a
// temporary directory; devErr is why it did not open.
var (
	dev    *emu.Device
	devErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kernels-emu-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dev, devErr = emu.OpenIn(dir)
	code := m.Run()
	if dev != nil {
		dev.Close()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// device returns the emulator, skipping the test where no C++ compiler is found.
func device(t *testing.T) *emu.Device {
	t.Helper()
	if devErr != nil {
		if strings.Contains(devErr.Error(), "no C++ compiler") {
			t.Skip(devErr)
		}
		t.Fatal(devErr)
	}
	return dev
}

// upload allocates a device buffer holding v; it is freed when the test ends.
func upload(t *testing.T, v []float32) cuda.Buf {
	t.Helper()
	d := device(t)
	b, err := d.Alloc(max(len(v), 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Free(b) })
	if err := d.Upload(b, v); err != nil {
		t.Fatal(err)
	}
	return b
}

// zeros allocates a zeroed device buffer of n.
func zeros(t *testing.T, n int) cuda.Buf { return upload(t, make([]float32, n)) }

// download returns the first n elements of b.
func download(t *testing.T, b cuda.Buf, n int) []float32 {
	t.Helper()
	v := make([]float32, n)
	if err := device(t).Download(v, b); err != nil {
		t.Fatal(err)
	}
	return v
}

// launch runs a kernel on the emulator, failing the test on an error.
func launch(t *testing.T, name string, grid, block cuda.Dim3, args ...any) {
	t.Helper()
	if err := device(t).Launch(name, grid, block, args...); err != nil {
		t.Fatal(err)
	}
}

// normals returns n standard normal values times scale.
func normals(rng *rand.Rand, n int, scale float64) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * scale)
	}
	return v
}

// sameBits fails unless got and want are equal bit for bit.
func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s[%d] = %v, want %v exactly", what, i, got[i], want[i])
		}
	}
}

// near fails unless |got - want| <= tol (1 + |want|) everywhere.
func near(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if !(math.Abs(g-w) <= tol*(1+math.Abs(w))) {
			t.Fatalf("%s[%d] = %v, want %v (tolerance %g)", what, i, g, w, tol)
		}
	}
}

// blocks returns the grid size for n elements in blocks of 256, capped at limit to exercise
// the grid-stride loops.
func blocks(n, limit int) cuda.Dim3 { return cuda.D1(max(1, min((n+255)/256, limit))) }

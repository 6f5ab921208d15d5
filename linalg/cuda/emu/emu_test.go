package emu

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/kernels"
)

// testSource holds kernels that exercise the emulator itself.
const testSource = `
extern "C" __global__ void t_index(float* out, int n)
{
    int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int i = b * blockDim.x * blockDim.y * blockDim.z + t;
    if (i < n) {
        out[i] = i;
    }
}

extern "C" __global__ void t_reverse(float* out, const float* in)
{
    __shared__ float s[256];
    int t = threadIdx.x, o = blockIdx.x * blockDim.x;
    s[t] = in[o + t];
    __syncthreads();
    out[o + t] = s[blockDim.x - 1 - t];
}

extern "C" __global__ void t_diverge(float* out)
{
    if (threadIdx.x == 0) {
        return;
    }
    __syncthreads();
    out[threadIdx.x] = 1;
}

extern "C" __global__ void t_race_threads(float* out)
{
    int t = threadIdx.x;
    out[t] = t;
    out[t] += out[(t + 1) % blockDim.x];
}

extern "C" __global__ void t_race_blocks(float* out)
{
    out[0] = blockIdx.x;
}

#define HIDDEN_SYNC __syncthreads
extern "C" __global__ void t_hidden_barrier(float* out)
{
    HIDDEN_SYNC();
    out[threadIdx.x] = 1;
}

extern "C" __global__ void t_overrun(float* out, int i)
{
    out[i] = 1;
}

extern "C" __global__ void t_atomic(float* out, float v)
{
    atomicAdd(out, v);
}

extern "C" __global__ void t_args(float* out, int* iout, int a, float b)
{
    out[0] = a + b;
    iout[0] = a * 2;
}
`

// testDir is the library cache the tests share, so that testSource is compiled once.
var testDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "emu-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// openTest returns an emulator of testSource compiled in dir, skipping the test where no C++
// compiler is found.
func openTest(t *testing.T, dir string) *Device {
	t.Helper()
	ks, err := kernels.Parse("test.cu", testSource)
	if err != nil {
		t.Fatal(err)
	}
	d, err := open(dir, testSource, ks)
	if err != nil {
		if strings.Contains(err.Error(), "no C++ compiler") {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// upload allocates a buffer holding v.
func upload(t *testing.T, d *Device, v []float32) cuda.Buf {
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

// download returns the first n elements of b.
func download(t *testing.T, d *Device, b cuda.Buf, n int) []float32 {
	t.Helper()
	v := make([]float32, n)
	if err := d.Download(v, b); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestIndexCoversGrid(t *testing.T) {
	d := openTest(t, testDir)
	grid, block := cuda.Dim3{X: 3, Y: 2, Z: 2}, cuda.Dim3{X: 5, Y: 3, Z: 2}
	n := 3 * 2 * 2 * 5 * 3 * 2
	out := upload(t, d, make([]float32, n+7))
	for i := range n + 7 {
		if err := d.Upload(out.At(i, 1), []float32{-1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Launch("t_index", grid, block, out, int32(n)); err != nil {
		t.Fatal(err)
	}
	got := download(t, d, out, n+7)
	for i, v := range got {
		want := float32(i)
		if i >= n {
			want = -1
		}
		if v != want {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}
}

// TestBarrier reverses each block's values through shared memory: without a real barrier
// thread 0 would read s[last] before the last thread wrote it (here, the previous block's value).
// Both thread switches run it: x86-64's own and the ucontext one other CPUs use.
func TestBarrier(t *testing.T) {
	for _, sw := range []struct{ name, flag string }{{"native", ""}, {"ucontext", "-DEMU_UCONTEXT"}} {
		t.Run(sw.name, func(t *testing.T) {
			dir := testDir
			if sw.flag != "" {
				saved := cxxFlags
				cxxFlags = append(append([]string(nil), cxxFlags...), sw.flag)
				t.Cleanup(func() { cxxFlags = saved })
				dir = t.TempDir()
			}
			d := openTest(t, dir)
			const blocks, threads = 3, 100
			in := make([]float32, blocks*threads)
			for i := range in {
				in[i] = float32(i)
			}
			ib, ob := upload(t, d, in), upload(t, d, make([]float32, len(in)))
			if err := d.Launch("t_reverse", cuda.D1(blocks), cuda.D1(threads), ob, ib); err != nil {
				t.Fatal(err)
			}
			got := download(t, d, ob, len(in))
			for b := range blocks {
				for i := range threads {
					if want := in[b*threads+threads-1-i]; got[b*threads+i] != want {
						t.Fatalf("block %d out[%d] = %v, want %v", b, i, got[b*threads+i], want)
					}
				}
			}
			out := upload(t, d, make([]float32, 32))
			err := d.Launch("t_diverge", cuda.D1(1), cuda.D1(32), out)
			if err == nil || !strings.Contains(err.Error(), "__syncthreads() not reached by every thread") {
				t.Fatalf("err = %v, want a divergent barrier", err)
			}
			// a launch after the one left mid-block starts its threads afresh
			if err := d.Launch("t_reverse", cuda.D1(blocks), cuda.D1(threads), ob, ib); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCheckOrder(t *testing.T) {
	d := openTest(t, testDir)
	out := upload(t, d, make([]float32, 64))
	d.CheckOrder(true)
	for _, c := range []struct {
		name        string
		grid, block int
	}{{"t_race_threads", 1, 64}, {"t_race_blocks", 3, 1}} {
		err := d.Launch(c.name, cuda.D1(c.grid), cuda.D1(c.block), out)
		if err == nil || !strings.Contains(err.Error(), "depends on the order of blocks or threads") {
			t.Errorf("%s: err = %v, want a race", c.name, err)
		}
	}
	// A barrier orders what the race above did not.
	in := upload(t, d, make([]float32, 64))
	if err := d.Launch("t_reverse", cuda.D1(1), cuda.D1(64), out, in); err != nil {
		t.Error(err)
	}
	d.CheckOrder(false)
	if err := d.Launch("t_race_blocks", cuda.D1(3), cuda.D1(1), out); err != nil {
		t.Fatal(err)
	}
	if got := download(t, d, out, 1)[0]; got != 2 {
		t.Fatalf("out[0] = %v after blocks in index order, want 2", got)
	}
}

func TestDivergentBarrierFails(t *testing.T) {
	d := openTest(t, testDir)
	out := upload(t, d, make([]float32, 32))
	err := d.Launch("t_diverge", cuda.D1(1), cuda.D1(32), out)
	if err == nil || !strings.Contains(err.Error(), "__syncthreads() not reached by every thread") {
		t.Fatalf("err = %v, want a divergent barrier", err)
	}
}

// TestHiddenBarrierFails: a barrier that kernels.List does not see (behind a macro) is
// reported, not skipped: the emulator runs such a kernel's threads as plain calls.
func TestHiddenBarrierFails(t *testing.T) {
	d := openTest(t, testDir)
	out := upload(t, d, make([]float32, 4))
	err := d.Launch("t_hidden_barrier", cuda.D1(1), cuda.D1(4), out)
	if err == nil || !strings.Contains(err.Error(), "reached __syncthreads() where kernels.List found none") {
		t.Fatalf("err = %v, want an unexpected barrier", err)
	}
}

func TestWritesOutsideBuffersFail(t *testing.T) {
	d := openTest(t, testDir)
	out := upload(t, d, make([]float32, 10))
	for _, c := range []struct {
		i    int32
		want string
	}{{10, "wrote element 10 of a buffer of 10"}, {12, "wrote element 12 of a buffer of 10"}, {-1, "wrote element -1 of a buffer of 10"}} {
		err := d.Launch("t_overrun", cuda.D1(1), cuda.D1(1), out, c.i)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("out[%d] = 1: err = %v, want %q", c.i, err, c.want)
		}
	}
	// The guards were restored: a write inside passes.
	if err := d.Launch("t_overrun", cuda.D1(1), cuda.D1(1), out, int32(9)); err != nil {
		t.Fatal(err)
	}
}

func TestAtomicAddAllThreads(t *testing.T) {
	d := openTest(t, testDir)
	out := upload(t, d, []float32{1})
	if err := d.Launch("t_atomic", cuda.D1(4), cuda.D1(64), out, float32(0.5)); err != nil {
		t.Fatal(err)
	}
	if got := download(t, d, out, 1)[0]; got != 1+4*64*0.5 {
		t.Fatalf("sum = %v, want %v", got, 1+4*64*0.5)
	}
}

func TestLaunchArguments(t *testing.T) {
	d := openTest(t, testDir)
	f, i := upload(t, d, make([]float32, 2)), upload(t, d, make([]float32, 2))
	if err := d.Launch("t_args", cuda.D1(1), cuda.D1(1), f, i, int32(7), float32(0.25)); err != nil {
		t.Fatal(err)
	}
	if got := download(t, d, f, 1)[0]; got != 7.25 {
		t.Fatalf("float out = %v, want 7.25", got)
	}
	if got := int32(math.Float32bits(download(t, d, i, 1)[0])); got != 14 {
		t.Fatalf("int out = %d, want 14", got)
	}

	freed, _ := d.Alloc(4)
	d.Free(freed)
	outside := cuda.Buf{Ptr: f.Ptr + 4, N: 2}
	for _, c := range []struct {
		name string
		args []any
		want string
	}{
		{"t_args", []any{f, i, int32(7)}, "takes 4 arguments, got 3"},
		{"t_args", []any{f, i, 7, float32(0)}, "argument 2 is a int, want int"},
		{"t_args", []any{f, i, int32(7), 0.5}, "argument 3 is a float64, want float"},
		{"t_args", []any{f, int32(1), int32(7), float32(0)}, "argument 1 is an int32, want pointer"},
		{"t_args", []any{f, i, f, float32(0)}, "argument 2 is a buffer, want int"},
		{"t_args", []any{outside, i, int32(7), float32(0)}, "buffer of 2 at element 1.0 of an allocation of 2"},
		{"t_args", []any{freed, i, int32(7), float32(0)}, "argument 0"},
		{"t_nope", nil, `no kernel "t_nope"`},
	} {
		err := d.Launch(c.name, cuda.D1(1), cuda.D1(1), c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Launch(%s, %v): err = %v, want %q", c.name, c.args, err, c.want)
		}
	}
	for _, c := range []struct {
		grid, block cuda.Dim3
	}{{cuda.D1(0), cuda.D1(1)}, {cuda.D1(1), cuda.Dim3{X: 32, Y: 33, Z: 1}}, {cuda.Dim3{X: 1, Y: 0, Z: 1}, cuda.D1(1)}} {
		err := d.Launch("t_atomic", c.grid, c.block, f, float32(1))
		if err == nil || !strings.Contains(err.Error(), "bad launch size") {
			t.Errorf("grid %v block %v: err = %v, want a bad launch size", c.grid, c.block, err)
		}
	}
}

// TestLaunchCount: a launch and a product count one each, as on the GPU (cuda's
// TestDeviceLaunchCount); a refused one counts none.
func TestLaunchCount(t *testing.T) {
	d := openTest(t, testDir)
	x := upload(t, d, make([]float32, 16))
	before := d.Launches()
	if err := errors.Join(d.Launch("t_atomic", cuda.D1(2), cuda.D1(4), x, float32(1)),
		d.Sgemm(false, false, 2, 2, 2, 1, x, 2, x, 2, 0, x.At(8, 4), 2),
		d.SgemmStrided(false, false, 1, 2, 2, 1, x, 2, 2, x, 2, 0, 0, x.At(8, 8), 2, 4, 2)); err != nil {
		t.Fatal(err)
	}
	d.Launch("t_atomic", cuda.D1(0), cuda.D1(1), x, float32(1))
	d.Sgemm(false, false, 2, 2, 64, 1, x, 64, x, 2, 0, x, 2)
	if got := d.Launches() - before; got != 3 {
		t.Fatalf("%d launches counted, want 3", got)
	}
}

func TestCopiesChecked(t *testing.T) {
	d := openTest(t, testDir)
	b := upload(t, d, make([]float32, 4))
	if err := d.Upload(b, make([]float32, 5)); err == nil {
		t.Error("Upload of 5 into 4: no error")
	}
	if err := d.Download(make([]float32, 3), b.At(2, 2)); err == nil {
		t.Error("Download of 3 from 2: no error")
	}
	if err := d.Upload(cuda.Buf{Ptr: 8, N: 1}, []float32{1}); err == nil {
		t.Error("Upload to address 8: no error")
	}
}

func TestLibraryCached(t *testing.T) {
	dir := t.TempDir()
	openTest(t, dir)
	openTest(t, dir)
	libs, _ := filepath.Glob(filepath.Join(dir, "*.so"))
	if len(libs) != 1 {
		t.Fatalf("cache holds %v, want one library", libs)
	}
	other := strings.Replace(testSource, "a * 2", "a * 3", 1)
	ks, _ := kernels.Parse("test.cu", other)
	d, err := open(dir, other, ks)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if libs, _ = filepath.Glob(filepath.Join(dir, "*.so")); len(libs) != 2 {
		t.Fatalf("after a changed source the cache holds %v, want two libraries", libs)
	}
}

func TestNoCompiler(t *testing.T) {
	t.Setenv("CXX", "/nonexistent/c++")
	_, err := OpenIn(t.TempDir())
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "no C++ compiler") {
		t.Fatalf("err = %v, want one line saying no C++ compiler", err)
	}
}

func TestCompileErrorOneLine(t *testing.T) {
	if _, _, err := compiler(); err != nil {
		t.Skip(err)
	}
	src := `extern "C" __global__ void t_bad(float* out) { out[0] = undefined_name; }`
	ks, _ := kernels.Parse("bad.cu", src)
	_, err := open(t.TempDir(), src, ks)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "undefined_name") {
		t.Fatalf("err = %v, want one line naming undefined_name", err)
	}
}

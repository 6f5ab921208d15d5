// Package cudastub builds stub CUDA libraries (a driver that finds one GPU, cuBLAS, NVRTC,
// NVML: a few lines of C each) for tests of how spg-tui opens a GPU, and what it does when that
// fails, on machines without one. They are built with the C compiler once per test binary.
package cudastub

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"spg-tui/linalg/cuda"
)

// The stubs' sources.
var (
	//go:embed csrc/libcuda.c
	cudaSource string
	//go:embed csrc/libcublas.c
	cublasSource string
	//go:embed csrc/libnvrtc.c
	nvrtcSource string
	//go:embed csrc/libnvidia-ml.c
	nvmlSource string
)

// Variant is a directory of stub libraries, for cuda.LibEnv.
type Variant string

// The variants. Where a stub is left out, the machine's own library must not stand in for it:
// Use keeps the search to the stubs' directory.
const (
	// OK opens: the driver finds one GPU, cuBLAS and NVRTC load; the driver refuses a PTX
	// that holds RejectMark. NVML reads its GPU 42% busy, 1 GiB of its 80 GiB in use.
	OK Variant = "ok"
	// NoCublas is the driver and NVRTC without cuBLAS (a driver without the CUDA toolkit).
	NoCublas Variant = "no-cublas"
	// NoNVRTC is the driver and cuBLAS without NVRTC.
	NoNVRTC Variant = "no-nvrtc"
	// CtxFails is a driver whose cuDevicePrimaryCtxRetain fails ("out of memory").
	CtxFails Variant = "ctx-fails"
	// Rejects is a driver whose cuModuleLoadData refuses every PTX.
	Rejects Variant = "rejects"
	// NoKernel is a driver that loads the module but finds none of its kernels, so that the
	// PTX is compiled (and cached) before Open fails.
	NoKernel Variant = "no-kernel"
	// FIFO has a named pipe for libcuda.so.1.
	FIFO Variant = "fifo"
	// Directory has a directory for libcuda.so.1.
	Directory Variant = "directory"
	// NotELF has a text file for libcuda.so.1.
	NotELF Variant = "not-elf"
)

// RejectMark, in a PTX, makes the OK driver refuse it.
const RejectMark = "REJECT"

// OnlyEnv, set to 1 in a child process that runs spg-tui's main, asks it (FromEnv) to look for
// the CUDA libraries in cuda.LibEnv's directories alone, as Use does in the test's own process.
const OnlyEnv = "SPG_TUI_TEST_CUDA_STUB"

// The stubs of this test binary, built once in root; why says why they could not be.
var (
	once sync.Once
	root string
	why  error
)

// Dir returns the directory of variant v, building the stubs on the first call; it skips the
// test where no C compiler is found.
func Dir(t testing.TB, v Variant) string {
	t.Helper()
	once.Do(func() { root, why = build() })
	if errors.Is(why, errNoCompiler) {
		t.Skipf("cudastub: %v", why)
	}
	if why != nil {
		t.Fatalf("cudastub: %v", why)
	}
	return filepath.Join(root, string(v))
}

// Use points cuda.LibEnv at variant v's directory, alone, for the rest of the test.
func Use(t testing.TB, v Variant) {
	t.Helper()
	t.Setenv(cuda.LibEnv, Dir(t, v))
	cuda.LibEnvOnly(true)
	t.Cleanup(func() { cuda.LibEnvOnly(false) })
}

// Env is the environment of a child process that runs main (see FromEnv) with variant v's
// directory, alone, as its CUDA libraries.
func Env(t testing.TB, v Variant) []string {
	t.Helper()
	return []string{cuda.LibEnv + "=" + Dir(t, v), OnlyEnv + "=1"}
}

// FromEnv, in a child process given Env, keeps the search to cuda.LibEnv's directories.
func FromEnv() {
	if os.Getenv(OnlyEnv) == "1" {
		cuda.LibEnvOnly(true)
	}
}

// Calls counts the lines named what in the stubs' log: the driver notes "cuInit", "retain"
// and "release" (of the primary context), NVRTC "compile". The log is the test binary's and
// its children's.
func Calls(t testing.TB, what string) int {
	t.Helper()
	b, err := os.ReadFile(logPath())
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if line == what {
			n++
		}
	}
	return n
}

// Main is TestMain for a package that uses the stubs: it runs the tests, then removes the stubs.
func Main(m *testing.M) {
	code := m.Run()
	Remove()
	os.Exit(code)
}

// Remove deletes the stubs; call it from TestMain after the tests (Main does).
func Remove() {
	if root != "" {
		os.RemoveAll(root)
	}
}

// logPath is the log's file.
func logPath() string { return filepath.Join(root, "calls.log") }

// errNoCompiler is build's error where no C compiler is found.
var errNoCompiler = errors.New("no C compiler (gcc or cc on PATH, or CC): the stub CUDA libraries cannot be built")

// build compiles the stubs into a new temporary directory and lays out the variants.
func build() (string, error) {
	cc := ""
	for _, name := range []string{os.Getenv("CC"), "gcc", "cc"} {
		if p, err := exec.LookPath(name); name != "" && err == nil {
			cc = p
			break
		}
	}
	if cc == "" {
		return "", errNoCompiler
	}
	dir, err := os.MkdirTemp("", "spg-cudastub-")
	if err != nil {
		return "", err
	}
	root = dir
	libs := filepath.Join(dir, "lib")
	if err := os.Mkdir(libs, 0o755); err != nil {
		return dir, err
	}
	// Each stub built once; the variants link to them. No soname: a stub must never be taken
	// for the real library that a later dlopen by soname asks for.
	for _, b := range []struct{ name, src, define string }{
		{"libcuda-ok.so", cudaSource, ""}, {"libcuda-ctx.so", cudaSource, "CTX_FAILS"},
		{"libcuda-rejects.so", cudaSource, "REJECTS"}, {"libcuda-nokernel.so", cudaSource, "NO_KERNEL"},
		{"libcublas.so", cublasSource, ""}, {"libnvrtc.so", nvrtcSource, ""}, {"libnvidia-ml.so", nvmlSource, ""},
	} {
		src := filepath.Join(libs, strings.TrimSuffix(b.name, ".so")+".c")
		if err := os.WriteFile(src, []byte(b.src), 0o644); err != nil {
			return dir, err
		}
		args := []string{"-shared", "-fPIC", "-O1", "-w", "-DSTUB_LOG=" + strconv.Quote(logPath()), "-o", filepath.Join(libs, b.name), src}
		if b.define != "" {
			args = append(args, "-D"+b.define)
		}
		if out, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
			return dir, fmt.Errorf("%s %s: %v\n%s", cc, b.name, err, out)
		}
	}
	full := func(driver string) map[string]string {
		return map[string]string{"libcuda.so.1": driver, "libcublas.so.13": "libcublas.so", "libnvrtc.so.13": "libnvrtc.so"}
	}
	withNVML := func(links map[string]string) map[string]string {
		links["libnvidia-ml.so.1"] = "libnvidia-ml.so"
		return links
	}
	layout := map[Variant]map[string]string{
		OK: withNVML(full("libcuda-ok.so")), CtxFails: full("libcuda-ctx.so"), Rejects: full("libcuda-rejects.so"),
		NoKernel: full("libcuda-nokernel.so"),
		NoCublas: {"libcuda.so.1": "libcuda-ok.so", "libnvrtc.so.13": "libnvrtc.so"},
		NoNVRTC:  {"libcuda.so.1": "libcuda-ok.so", "libcublas.so.13": "libcublas.so"},
		FIFO:     {}, Directory: {}, NotELF: {},
	}
	for v, links := range layout {
		vd := filepath.Join(dir, string(v))
		if err := os.Mkdir(vd, 0o755); err != nil {
			return dir, err
		}
		for name, lib := range links {
			if err := os.Symlink(filepath.Join(libs, lib), filepath.Join(vd, name)); err != nil {
				return dir, err
			}
		}
	}
	driver := func(v Variant) string { return filepath.Join(dir, string(v), "libcuda.so.1") }
	return dir, errors.Join(syscall.Mkfifo(driver(FIFO), 0o644), os.Mkdir(driver(Directory), 0o755),
		os.WriteFile(driver(NotELF), []byte(strings.Repeat("not a library\n", 20)), 0o644))
}

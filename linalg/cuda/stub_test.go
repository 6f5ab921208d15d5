package cuda_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/cudastub"
)

func TestMain(m *testing.M) { cudastub.Main(m) }

// stubOptions are Open's options for the stubs: any source (the stub NVRTC compiles them all
// alike) and one kernel, with the PTX cache in dir.
func stubOptions(dir string) cuda.Options {
	return cuda.Options{Source: "extern \"C\" __global__ void k() {}", Kernels: []string{"k"}, CacheDir: dir}
}

// TestOpenStubRefusals: a driver that loads but a GPU that cannot be used is refused in one
// line naming the cause (the loader's own message for a library that does not load), not
// taken for a machine without a GPU; a named pipe or a directory in place of the driver is
// not dlopened (a pipe would block it); what Open had retained is released.
func TestOpenStubRefusals(t *testing.T) {
	for _, c := range []struct {
		v        cudastub.Variant
		want     []string
		unwanted string
	}{
		{cudastub.NoCublas, []string{"cuBLAS not found; set SPG_TUI_CUDA_LIB to its directory (no libcublas.so.13, ", "in SPG_TUI_CUDA_LIB ("}, ""},
		{cudastub.NoNVRTC, []string{"NVRTC not found; set SPG_TUI_CUDA_LIB to its directory (no libnvrtc.so.13, "}, ""},
		{cudastub.CtxFails, []string{"cuDevicePrimaryCtxRetain: out of memory (CUresult 2)"}, ""},
		{cudastub.Rejects, []string{"cuModuleLoadData: a PTX JIT compilation failed (CUresult 218), for the PTX NVRTC 13.0 compiled for compute_90"}, "cached"},
		{cudastub.FIFO, []string{"libcuda from SPG_TUI_CUDA_LIB: ", "fifo/libcuda.so.1 is not a regular file (mode p"}, "set SPG_TUI_CUDA_LIB"},
		{cudastub.Directory, []string{"directory/libcuda.so.1 is not a regular file (mode d"}, "set SPG_TUI_CUDA_LIB"},
		{cudastub.NotELF, []string{"libcuda from SPG_TUI_CUDA_LIB: ", "not-elf/libcuda.so.1: invalid ELF header"}, "set SPG_TUI_CUDA_LIB to its directory"},
	} {
		t.Run(string(c.v), func(t *testing.T) {
			cudastub.Use(t, c.v)
			retained, released := cudastub.Calls(t, "retain"), cudastub.Calls(t, "release")
			d, err := cuda.Open(stubOptions(t.TempDir()))
			if err == nil {
				d.Close()
				t.Fatal("the stub opened")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || cuda.Absent(err) || (c.unwanted != "" && strings.Contains(msg, c.unwanted)) {
				t.Errorf("refusal %q: want one line, not a missing GPU, without %q", msg, c.unwanted)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("refusal %q lacks %q", msg, w)
				}
			}
			if r := cudastub.Calls(t, "retain") - retained; cudastub.Calls(t, "release")-released != r {
				t.Errorf("%d contexts retained, %d released", r, cudastub.Calls(t, "release")-released)
			}
		})
	}
}

// TestOpenStubPTXCache: the PTX is compiled once and then read from the cache; a cached PTX
// the driver rejects is removed and compiled again, once, and the new one cached; where the
// fresh one is rejected too, the refusal names the cached file, which is gone.
func TestOpenStubPTXCache(t *testing.T) {
	cudastub.Use(t, cudastub.OK)
	dir := t.TempDir()
	open := func(wantCompiles int) {
		t.Helper()
		before := cudastub.Calls(t, "compile")
		d, err := cuda.Open(stubOptions(dir))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if n := cudastub.Calls(t, "compile") - before; n != wantCompiles {
			t.Errorf("%d compilations, want %d", n, wantCompiles)
		}
	}
	open(1)
	entries, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache holds %v (%v), want one PTX", entries, err)
	}
	entry := entries[0]
	open(0)
	if err := os.WriteFile(entry, []byte(".version 8.0\n.visible .entry k() { ret; } // "+cudastub.RejectMark+"\n\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	open(1)
	if b, err := os.ReadFile(entry); err != nil || strings.Contains(string(b), cudastub.RejectMark) {
		t.Fatalf("the rejected entry was not replaced: %q, %v", b, err)
	}

	cudastub.Use(t, cudastub.Rejects)
	before := cudastub.Calls(t, "compile")
	_, err = cuda.Open(stubOptions(dir))
	if err == nil || !strings.Contains(err.Error(), "for the cached "+entry+" and for the PTX compiled in its place") {
		t.Fatalf("refusal %v: want it to name %s", err, entry)
	}
	if n := cudastub.Calls(t, "compile") - before; n != 1 {
		t.Errorf("%d compilations after a rejected cached PTX, want 1", n)
	}
	if _, err := os.Stat(entry); !os.IsNotExist(err) {
		t.Errorf("the rejected entry is still there (%v)", err)
	}
}

package kernels_test

import (
	"strings"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/kernels"
)

// nvrtcOrSkip loads NVRTC as the CUDA driver does (cuda.LoadNVRTC), or skips in one line.
func nvrtcOrSkip(t *testing.T) *cuda.NVRTC {
	t.Helper()
	nv, err := cuda.LoadNVRTC()
	if err != nil {
		t.Skipf("no NVRTC: %v", err)
	}
	return nv
}

// TestNVRTCCompiles compiles every kernel source as the CUDA driver does, through the same
// function and options, for compute_80 (the newest architecture NVRTC 11.8 knows; the GPU
// machine compiles for its own), and checks that each kernel is an entry of the PTX under its
// C name. Warnings fail too.
func TestNVRTCCompiles(t *testing.T) {
	nv := nvrtcOrSkip(t)
	ptx, log, err := nv.Compile(kernels.Source(), "spg-tui.cu", "compute_80")
	if err != nil {
		t.Fatalf("NVRTC %d.%d from %s: %v", nv.Major, nv.Minor, nv.Path, err)
	}
	if log != "" {
		t.Fatalf("NVRTC warns:\n%s", log)
	}
	ks, err := kernels.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range ks {
		if !strings.Contains(string(ptx), ".entry "+k.Name+"(") {
			t.Errorf("PTX has no entry %s", k.Name)
		}
	}
}

// TestNVRTCReportsErrors makes sure the test above can fail: a source with an error does not
// compile and the log names it.
func TestNVRTCReportsErrors(t *testing.T) {
	nv := nvrtcOrSkip(t)
	_, log, err := nv.Compile(`extern "C" __global__ void bad(float* y) { y[0] = undefined_name; }`, "bad.cu", "compute_80")
	if err == nil || !strings.Contains(log, "undefined_name") {
		t.Fatalf("err = %v, log %q: want a compile error naming undefined_name", err, log)
	}
}

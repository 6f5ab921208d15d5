package kernels_test

import (
	"regexp"
	"strings"
	"testing"

	"spg-tui/linalg/cuda/kernels"
)

func TestParse(t *testing.T) {
	ks, err := kernels.Parse("a.cu", `extern "C" __global__ void k(float* y, const float *x, int* idx, int n, float s)`)
	if err != nil {
		t.Fatal(err)
	}
	want := []kernels.Kind{kernels.Ptr, kernels.Ptr, kernels.Ptr, kernels.Int, kernels.Float}
	if len(ks) != 1 || ks[0].Name != "k" || len(ks[0].Args) != len(want) {
		t.Fatalf("Parse = %+v", ks)
	}
	for i, k := range want {
		if ks[0].Args[i] != k {
			t.Errorf("argument %d: %v, want %v", i, ks[0].Args[i], k)
		}
	}
	if ks[0].Types[1] != "const float*" {
		t.Errorf("type of x = %q, want const float*", ks[0].Types[1])
	}
	for _, c := range []struct{ src, want string }{
		{`__global__ void k(float* y)`, "1 __global__ but 0 declared"},
		{`extern "C" __global__ void k(double* y)`, `parameter "double* y"`},
		{`extern "C" __global__ void k(float* __restrict__ y)`, "want float*"},
		{`extern "C" __global__ void k(int)`, "no type and name"},
	} {
		if _, err := kernels.Parse("a.cu", c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): err = %v, want %q", c.src, err, c.want)
		}
	}
}

func TestBarriers(t *testing.T) {
	src := `
__device__ float plain(float v) { return v * 2; }
__device__ double sum(double v, double* part)
{
    if (v > 0) {
        __syncthreads();
    }
    return v;
}
__device__ double viaSum(double v, double* part) { return sum(v, part); }
// __syncthreads() in a comment is not a barrier
extern "C" __global__ void a(float* y) { y[0] = plain(y[0]); /* __syncthreads() */ }
extern "C" __global__ void b(float* y) { for (int i = 0; i < 2; i++) { y[i] = viaSum(y[i], 0); } }
extern "C" __global__ void c(float* y) { __syncthreads(); }
`
	ks, err := kernels.Parse("a.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a": false, "b": true, "c": true}
	for _, k := range ks {
		if k.Barrier != want[k.Name] {
			t.Errorf("kernel %s: Barrier = %v, want %v", k.Name, k.Barrier, want[k.Name])
		}
	}
	// Across files: batchnorm_forward reaches a barrier through common.cu's block_sum.
	all, err := kernels.List()
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]bool{"leaky_relu": false, "transpose": false, "gru_sequence": true, "col_sums": true, "batchnorm_forward": true, "sinkhorn_forward": true}
	for _, k := range all {
		if w, ok := want[k.Name]; ok && k.Barrier != w {
			t.Errorf("kernel %s: Barrier = %v, want %v", k.Name, k.Barrier, w)
		}
	}
}

// TestSourcesPortable checks the rules of the package doc that a compiler would not: both
// NVRTC and the emulator take these constructs, but the emulator would mean something else.
func TestSourcesPortable(t *testing.T) {
	ks, err := kernels.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) == 0 {
		t.Fatal("no kernels")
	}
	banned := regexp.MustCompile(`#include|extern __shared__|__shfl|__ballot|__any_sync|__all_sync|__syncwarp|warpSize`)
	for name, src := range kernels.Sources() {
		if m := banned.FindString(src); m != "" {
			t.Errorf("%s uses %s", name, m)
		}
	}
}

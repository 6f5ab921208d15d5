package gemm

import (
	"testing"

	"spg-tui/internal/gentest"
)

// The micro-kernels and packers are what gen_kernels.go writes: a hand edit of either file, or
// a generator change without go generate, fails here.
func TestGeneratedKernelsUpToDate(t *testing.T) {
	gentest.UpToDate(t, "gen_kernels.go", "kernel_amd64.s", "transpose_amd64.s")
}

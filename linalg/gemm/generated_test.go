package gemm

import (
	"testing"

	"spg-tui/internal/gentest"
)

// The micro-kernels, packers and one-column kernels are what gen_kernels.go (with gen_colt.go)
// writes: a hand edit of any of the files, or a generator change without go generate, fails here.
func TestGeneratedKernelsUpToDate(t *testing.T) {
	gentest.UpToDate(t, "gen_kernels.go gen_colt.go", "kernel_amd64.s", "transpose_amd64.s", "row_amd64.s", "colt_amd64.s")
}

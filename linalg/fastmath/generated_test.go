package fastmath

import (
	"testing"

	"spg-tui/internal/gentest"
)

// The AVX2 kernels and their AVX-512 twins are what gen_vec.go writes: a hand edit of either
// file, or a generator change without go generate, fails here.
func TestGeneratedKernelsUpToDate(t *testing.T) {
	gentest.UpToDate(t, "gen_vec.go", "vec_amd64.s", "vec512_amd64.s")
}

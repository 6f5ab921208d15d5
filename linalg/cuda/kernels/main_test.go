package kernels_test

import (
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
)

func TestMain(m *testing.M) { emutest.Main(m) }

// blocks returns the grid size for n elements in blocks of 256, capped at limit to exercise
// the grid-stride loops.
func blocks(n, limit int) cuda.Dim3 { return cuda.D1(max(1, min((n+255)/256, limit))) }

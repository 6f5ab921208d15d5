// Package layers runs the layers of spg-tui's models on a cuda.Device: one file per layer, each
// a forward and backward pair over explicit buffers (the caller allocates activations, saved
// state and gradients once), composed of the kernels of linalg/cuda/kernels and the device's
// matrix products. Each function checks its sizes against the buffers and returns a one-line
// error naming what is wrong; the numbers match the CPU packages (linalg/sinkhorn, linalg/gru,
// ...) within float32 rounding, which the tests check on the emulator (linalg/cuda/emu).
package layers

import (
	"fmt"
	"math"

	"spg-tui/linalg/cuda"
)

// need returns b's first n elements, or an error naming the buffer where it is shorter or n
// exceeds the kernels' int indices.
func need(layer, name string, b cuda.Buf, n int) (cuda.Buf, error) {
	if n > math.MaxInt32 {
		return cuda.Buf{}, fmt.Errorf("%s: %s would have %d elements, more than the kernels index (%d)", layer, name, n, math.MaxInt32)
	}
	if b.N < n {
		return cuda.Buf{}, fmt.Errorf("%s: %s has %d elements, want %d", layer, name, b.N, n)
	}
	return b.At(0, n), nil
}

// grid1 returns a 1-D grid of blocks of block threads covering n elements, at most maxBlocks
// blocks: the elementwise kernels stride over what the grid does not cover.
func grid1(n, block int) cuda.Dim3 { return cuda.D1(max(1, min((n+block-1)/block, maxBlocks))) }

// maxBlocks caps an elementwise grid: enough blocks to fill a GPU several times over.
const maxBlocks = 4096

// elementBlock is the block size of the elementwise kernels.
const elementBlock = 256

// i32 converts a size for a kernel argument; the callers have checked it against their
// buffers (need), which bounds it by math.MaxInt32.
func i32(n int) int32 { return int32(n) }

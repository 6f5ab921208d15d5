package gpulayers

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

// bufs checks each named buffer against its length, in order, and returns them cut to it; a
// length below 0 marks an optional buffer, kept empty when it is.
func bufs(op string, named ...any) ([]cuda.Buf, error) {
	out := make([]cuda.Buf, 0, len(named)/3)
	for i := 0; i < len(named); i += 3 {
		name, b, n := named[i].(string), named[i+1].(cuda.Buf), named[i+2].(int)
		if n < 0 {
			if b.N == 0 {
				out = append(out, b)
				continue
			}
			n = -n
		}
		b, err := need(op, name, b, n)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

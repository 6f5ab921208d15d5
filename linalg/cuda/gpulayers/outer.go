package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// PairOuter is agent/ops' PairOuter node: for x (B, 2N, H) holding the embeddings of set A
// (rows 0..N-1) then set B (rows N..2N-1) of each instance, E[b] = EB EA^T (B, N, N). It is
// batched products only.

// checkOuter returns an error for bad sizes and x and e cut to theirs.
func checkOuter(op string, x, e cuda.Buf, b, n, h int) (cuda.Buf, cuda.Buf, error) {
	if b <= 0 || n <= 0 || h <= 0 {
		return x, e, fmt.Errorf("%s: dimensions must be positive, got b = %d, n = %d, h = %d", op, b, n, h)
	}
	bs, err := bufs(op, "x", x, 2*b*n*h, "e", e, b*n*n)
	if err != nil {
		return x, e, err
	}
	return bs[0], bs[1], nil
}

// PairOuterForward sets e (B, N, N) to EB EA^T per instance of x (B, 2N, H).
func PairOuterForward(dev cuda.Device, e, x cuda.Buf, b, n, h int) error {
	x, e, err := checkOuter("PairOuterForward", x, e, b, n, h)
	if err != nil {
		return err
	}
	return dev.SgemmStrided(false, true, n, n, h, 1, from(x, n*h), h, 2*n*h, x, h, 2*n*h, 0, e, n, n*n, b)
}

// PairOuterBackward sets dx (B, 2N, H) from de (B, N, N): dEB = dE EA, dEA = dE^T EB.
func PairOuterBackward(dev cuda.Device, dx, de, x cuda.Buf, b, n, h int) error {
	x, de, err := checkOuter("PairOuterBackward", x, de, b, n, h)
	if err != nil {
		return err
	}
	if dx, err = need("PairOuterBackward", "dx", dx, 2*b*n*h); err != nil {
		return err
	}
	if err := dev.SgemmStrided(false, false, n, h, n, 1, de, n, n*n, x, h, 2*n*h, 0, from(dx, n*h), h, 2*n*h, b); err != nil {
		return err
	}
	return dev.SgemmStrided(true, false, n, h, n, 1, de, n, n*n, from(x, n*h), h, 2*n*h, 0, dx, h, 2*n*h, b)
}

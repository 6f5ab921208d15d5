package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// CentreItems sets y (b x n x w) to x less each instance's mean over its n items, per feature:
// ops.Centre. y may be x.
func CentreItems(dev cuda.Device, y, x cuda.Buf, b, n, w int) error {
	const op = "CentreItems"
	if b <= 0 || n <= 0 || w <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, w = %d, want all > 0", op, b, n, w)
	}
	bs, err := bufs(op, "y", y, b*n*w, "x", x, b*n*w)
	if err != nil {
		return err
	}
	return dev.Launch("centre_items", grid1(b*w, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b), i32(n), i32(w))
}

// SortValues sets y (b x n) to each sorting state's values shifted and scaled by its own span:
// pairs.SortValues. y may be x.
func SortValues(dev cuda.Device, y, x cuda.Buf, b, n int) error {
	const op = "SortValues"
	if b <= 0 || n <= 0 {
		return fmt.Errorf("%s: b = %d, n = %d, want both > 0", op, b, n)
	}
	bs, err := bufs(op, "y", y, b*n, "x", x, b*n)
	if err != nil {
		return err
	}
	return dev.Launch("sort_values", grid1(b, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], i32(b), i32(n))
}

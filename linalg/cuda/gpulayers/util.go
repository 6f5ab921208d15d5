package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// Fill sets every element of y to v.
func Fill(dev cuda.Device, y cuda.Buf, v float32) error {
	return FillRows(dev, y, y.N, 1, y.N, v)
}

// Copy copies x into the first x.N elements of y, which must not overlap it.
func Copy(dev cuda.Device, y, x cuda.Buf) error {
	return CopyRows(dev, y, x.N, x, x.N, 1, x.N)
}

// blockLen returns how many elements a rows x cols block with leading dimension ld spans, or
// an error where ld < cols.
func blockLen(op string, rows, cols, ld int) (int, error) {
	if rows < 0 || cols < 0 || ld < cols {
		return 0, fmt.Errorf("%s: a %d x %d block with leading dimension %d", op, rows, cols, ld)
	}
	if rows == 0 || cols == 0 {
		return 0, nil
	}
	return (rows-1)*ld + cols, nil
}

// FillRows sets the rows x cols block of y (leading dimension ldy) to v.
func FillRows(dev cuda.Device, y cuda.Buf, ldy, rows, cols int, v float32) error {
	n, err := blockLen("FillRows", rows, cols, ldy)
	if err != nil || n == 0 {
		return err
	}
	if y, err = need("FillRows", "y", y, n); err != nil {
		return err
	}
	return dev.Launch("fill_rows", grid1(rows*cols, elementBlock), cuda.D1(elementBlock), y, i32(ldy), i32(rows), i32(cols), v)
}

// CopyRows copies the rows x cols block of x (leading dimension ldx) into y (ldy); they must
// not overlap.
func CopyRows(dev cuda.Device, y cuda.Buf, ldy int, x cuda.Buf, ldx, rows, cols int) error {
	ny, err := blockLen("CopyRows", rows, cols, ldy)
	if err != nil {
		return err
	}
	nx, err := blockLen("CopyRows", rows, cols, ldx)
	if err != nil || nx == 0 {
		return err
	}
	if y, err = need("CopyRows", "y", y, ny); err != nil {
		return err
	}
	if x, err = need("CopyRows", "x", x, nx); err != nil {
		return err
	}
	return dev.Launch("copy_rows", grid1(rows*cols, elementBlock), cuda.D1(elementBlock), y, i32(ldy), x, i32(ldx), i32(rows), i32(cols))
}

// Add sets y = a + b elementwise over a.N elements (the sum of two layers' outputs, or of two
// gradients with respect to one); y may be a or b.
func Add(dev cuda.Device, y, a, b cuda.Buf) error {
	bs, err := bufs("Add", "y", y, a.N, "b", b, a.N)
	if err != nil || a.N == 0 {
		return err
	}
	return dev.Launch("add_floats", grid1(a.N, elementBlock), cuda.D1(elementBlock), bs[0], a, bs[1], i32(a.N))
}

// from returns b from element off on.
func from(b cuda.Buf, off int) cuda.Buf { return b.At(off, b.N-off) }

package layers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// Dense is agent/ops' Dense node, y = act(x w + b) over rows of x, on the device: one product
// and one bias-and-activation kernel forward; the activation's gradient, up to two products and
// the column sums backward. The activation is LeakyReLU with slope (1 for none, ops.Identity).

// DenseForward sets y (rows x nOut) = LeakyReLU_slope(x w + b) for x (rows x nIn) and w (nIn x
// nOut), row-major; b (nOut) of length 0 means no bias.
func DenseForward(dev cuda.Device, y, x, w, b cuda.Buf, rows, nIn, nOut int, slope float32) error {
	const op = "DenseForward"
	if rows < 0 || nIn <= 0 || nOut <= 0 {
		return fmt.Errorf("%s: rows = %d, in = %d, out = %d, want rows >= 0 and positive widths", op, rows, nIn, nOut)
	}
	bs, err := bufs(op, "y", y, rows*nOut, "x", x, rows*nIn, "w", w, nIn*nOut, "b", b, -nOut)
	if err != nil || rows == 0 {
		return err
	}
	y, x, w, b = bs[0], bs[1], bs[2], bs[3]
	if err := dev.Sgemm(false, false, rows, nOut, nIn, 1, x, nIn, w, nOut, 0, y, nOut); err != nil {
		return err
	}
	n := rows * nOut
	if b.N > 0 {
		return dev.Launch("bias_leaky_rows", grid1(n, elementBlock), cuda.D1(elementBlock), y, b, i32(rows), i32(nOut), slope)
	}
	if slope == 1 {
		return nil
	}
	return dev.Launch("leaky_relu", grid1(n, elementBlock), cuda.D1(elementBlock), y, y, i32(n), slope)
}

// DenseBackward computes the gradients through DenseForward given dy (rows x nOut): dx (rows
// x nIn), dw (nIn x nOut) and db (nOut), each of length 0 when not wanted. g (rows x nOut)
// receives the gradient before the activation; it may be dy itself, which is then
// overwritten. x, w and y are DenseForward's input, weights and output.
func DenseBackward(dev cuda.Device, dx, dw, db, g, dy, x, w, y cuda.Buf, rows, nIn, nOut int, slope float32) error {
	const op = "DenseBackward"
	if rows < 0 || nIn <= 0 || nOut <= 0 {
		return fmt.Errorf("%s: rows = %d, in = %d, out = %d, want rows >= 0 and positive widths", op, rows, nIn, nOut)
	}
	n := rows * nOut
	bs, err := bufs(op, "dx", dx, -rows*nIn, "dw", dw, -nIn*nOut, "db", db, -nOut, "g", g, n, "dy", dy, n,
		"x", x, rows*nIn, "w", w, nIn*nOut, "y", y, n)
	if err != nil {
		return err
	}
	dx, dw, db, g, dy, x, w, y = bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7]
	if rows == 0 { // no rows: the parameter gradients are sums of nothing
		if err := Fill(dev, dw, 0); err != nil {
			return err
		}
		return Fill(dev, db, 0)
	}
	if slope != 1 {
		if err := dev.Launch("leaky_relu_grad", grid1(n, elementBlock), cuda.D1(elementBlock), g, dy, y, i32(n), slope); err != nil {
			return err
		}
	} else if g.Ptr != dy.Ptr {
		if err := Copy(dev, g, dy); err != nil {
			return err
		}
	}
	if dx.N > 0 {
		if err := dev.Sgemm(false, true, rows, nIn, nOut, 1, g, nOut, w, nOut, 0, dx, nIn); err != nil {
			return err
		}
	}
	if dw.N > 0 {
		if err := dev.Sgemm(true, false, nIn, nOut, rows, 1, x, nIn, g, nOut, 0, dw, nOut); err != nil {
			return err
		}
	}
	if db.N > 0 {
		return ColSums(dev, db, g, rows, nOut, nOut)
	}
	return nil
}

// ColSums sets y (n) to the column sums of the m x n row-major matrix a with leading
// dimension lda: the bias gradient of a layer whose output gradient is a.
func ColSums(dev cuda.Device, y, a cuda.Buf, m, n, lda int) error {
	if m < 0 || n < 0 || lda < n {
		return fmt.Errorf("ColSums: a is %d x %d with leading dimension %d", m, n, lda)
	}
	y, err := need("ColSums", "y", y, n)
	if err != nil || n == 0 {
		return err
	}
	if m == 0 {
		return Fill(dev, y, 0)
	}
	if a, err = need("ColSums", "a", a, (m-1)*lda+n); err != nil {
		return err
	}
	return dev.Launch("col_sums", cuda.D1((n+31)/32), cuda.D1(256), y, a, i32(m), i32(n), i32(lda))
}

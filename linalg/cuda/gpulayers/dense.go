package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// Dense is agent/ops' Dense node, y = act(x w + b) over rows of x, on the device: one product
// and one bias-and-activation kernel forward; the activation's gradient and up to three
// products backward. The activation is LeakyReLU with slope (1 for none, ops.Identity).

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

// DenseGrads are the gradients DenseBackward computes, each of length 0 when it is not wanted,
// and whether DW and DB add to what they hold (a layer applied twice, as the critic's action
// branch is) instead of overwriting it. DX is always overwritten.
type DenseGrads struct {
	DX, DW, DB cuda.Buf
	Accumulate bool
}

// DenseBackward computes the gradients through DenseForward given dy (rows x nOut), with g
// = dy through the activation: gr.DX (rows x nIn) = g w^T, gr.DW (nIn x nOut) = x^T g and gr.DB
// (nOut) = ones^T g, the column sums as one product (a column-sums kernel has too little
// parallelism for the tall, narrow layers of the pair MLPs); ones holds at least rows ones and
// may be empty where DB is not wanted. Where slope is not 1, g (rows x nOut) receives the
// gradient through the activation and y is DenseForward's output; g may be dy itself, which is
// then overwritten. With slope 1, g is dy and g and y may be empty. x and w are
// DenseForward's input and weights.
func DenseBackward(dev cuda.Device, gr DenseGrads, g, dy, x, w, y, ones cuda.Buf, rows, nIn, nOut int, slope float32) error {
	const op = "DenseBackward"
	if rows < 0 || nIn <= 0 || nOut <= 0 {
		return fmt.Errorf("%s: rows = %d, in = %d, out = %d, want rows >= 0 and positive widths", op, rows, nIn, nOut)
	}
	n := rows * nOut
	act, wantDB := 0, 0
	if slope != 1 {
		act = n // the activation's gradient needs g and y
	}
	if gr.DB.N > 0 {
		wantDB = rows
	}
	bs, err := bufs(op, "dx", gr.DX, -rows*nIn, "dw", gr.DW, -nIn*nOut, "db", gr.DB, -nOut, "g", g, act, "dy", dy, n,
		"x", x, rows*nIn, "w", w, nIn*nOut, "y", y, act, "ones", ones, wantDB)
	if err != nil {
		return err
	}
	dx, dw, db, g, dy, x, w, y, ones := bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7], bs[8]
	beta := float32(0)
	if gr.Accumulate {
		beta = 1
	}
	if rows == 0 { // no rows: the parameter gradients are sums of nothing
		if gr.Accumulate {
			return nil
		}
		if err := Fill(dev, dw, 0); err != nil {
			return err
		}
		return Fill(dev, db, 0)
	}
	if slope != 1 {
		if err := dev.Launch("leaky_relu_grad", grid1(n, elementBlock), cuda.D1(elementBlock), g, dy, y, i32(n), slope); err != nil {
			return err
		}
	} else {
		g = dy
	}
	if dw.N > 0 {
		if err := dev.Sgemm(true, false, nIn, nOut, rows, 1, x, nIn, g, nOut, beta, dw, nOut); err != nil {
			return err
		}
	}
	if db.N > 0 {
		if err := dev.Sgemm(false, false, 1, nOut, rows, 1, ones, rows, g, nOut, beta, db, nOut); err != nil {
			return err
		}
	}
	if dx.N > 0 {
		return dev.Sgemm(false, true, rows, nIn, nOut, 1, g, nOut, w, nOut, 0, dx, nIn)
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

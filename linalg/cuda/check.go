package cuda

import "fmt"

// CheckGemm refuses a row-major product whose leading dimensions or buffers are too small for
// its shape, before any device reads or writes out of bounds (a GPU would not say). The
// strides and count describe a batched product; a plain one has count 1.
func CheckGemm(transA, transB bool, m, n, k int, a Buf, lda int, b Buf, ldb int, c Buf, ldc int, strideA, strideB, strideC, count int) error {
	if m < 1 || n < 1 || k < 1 || count < 1 || strideA < 0 || strideB < 0 || strideC < 0 {
		return fmt.Errorf("cuda: gemm %dx%dx%d (x%d): sizes must be >= 1", m, n, k, count)
	}
	need := func(what string, buf Buf, trans bool, rows, cols, ld, stride int) error {
		if trans {
			rows, cols = cols, rows
		}
		if ld < cols {
			return fmt.Errorf("cuda: gemm %dx%dx%d: ld%s %d < %d", m, n, k, what, ld, cols)
		}
		if want := (count-1)*stride + (rows-1)*ld + cols; buf.N < want {
			return fmt.Errorf("cuda: gemm %dx%dx%d (x%d): %s holds %d floats, needs %d", m, n, k, count, what, buf.N, want)
		}
		return nil
	}
	if err := need("a", a, transA, m, k, lda, strideA); err != nil {
		return err
	}
	if err := need("b", b, transB, k, n, ldb, strideB); err != nil {
		return err
	}
	return need("c", c, false, m, n, ldc, strideC)
}

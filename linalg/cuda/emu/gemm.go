package emu

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
)

// span returns how many elements a row-major rows x cols matrix with leading dimension ld
// covers, or an error where ld < cols.
func span(what string, rows, cols, ld int) (int, error) {
	if rows < 0 || cols < 0 || ld < max(cols, 1) {
		return 0, fmt.Errorf("emu: Sgemm: %s is %d x %d with leading dimension %d", what, rows, cols, ld)
	}
	if rows == 0 || cols == 0 {
		return 0, nil
	}
	return (rows-1)*ld + cols, nil
}

// operands returns how much of a, b and c one product touches.
func operands(transA, transB bool, m, n, k, lda, ldb, ldc int) (na, nb, nc int, err error) {
	ar, ac, br, bc := m, k, k, n
	if transA {
		ar, ac = k, m
	}
	if transB {
		br, bc = n, k
	}
	if na, err = span("a", ar, ac, lda); err != nil {
		return
	}
	if nb, err = span("b", br, bc, ldb); err != nil {
		return
	}
	nc, err = span("c", m, n, ldc)
	return
}

// trans returns the BLAS flag for t.
func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// Sgemm computes c = alpha op(a) op(b) + beta c with backend.Gemm, after checking that every
// operand lies in its buffer.
func (d *Device) Sgemm(transA, transB bool, m, n, k int, alpha float32, a cuda.Buf, lda int, b cuda.Buf, ldb int, beta float32, c cuda.Buf, ldc int) error {
	return d.SgemmStrided(transA, transB, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1)
}

// SgemmStrided is Sgemm over count matrices, the i-th operands i strides from the first. It
// counts one launch where it succeeds, as the GPU's does.
func (d *Device) SgemmStrided(transA, transB bool, m, n, k int, alpha float32, a cuda.Buf, lda, strideA int, b cuda.Buf, ldb, strideB int, beta float32, c cuda.Buf, ldc, strideC int, count int) error {
	err := d.sgemmStrided(transA, transB, m, n, k, alpha, a, lda, strideA, b, ldb, strideB, beta, c, ldc, strideC, count)
	if err == nil {
		d.count.Add()
	}
	return err
}

// sgemmStrided is SgemmStrided, uncounted.
func (d *Device) sgemmStrided(transA, transB bool, m, n, k int, alpha float32, a cuda.Buf, lda, strideA int, b cuda.Buf, ldb, strideB int, beta float32, c cuda.Buf, ldc, strideC int, count int) error {
	na, nb, nc, err := operands(transA, transB, m, n, k, lda, ldb, ldc)
	if err != nil {
		return err
	}
	if count < 0 || strideA < 0 || strideB < 0 || strideC < 0 {
		return fmt.Errorf("emu: Sgemm: count %d, strides %d, %d, %d", count, strideA, strideB, strideC)
	}
	if count == 0 || m == 0 || n == 0 {
		return nil
	}
	last := count - 1
	av, err := d.view("Sgemm a", a, last*strideA+na)
	if err != nil {
		return err
	}
	bv, err := d.view("Sgemm b", b, last*strideB+nb)
	if err != nil {
		return err
	}
	cv, err := d.view("Sgemm c", c, last*strideC+nc)
	if err != nil {
		return err
	}
	if k == 0 { // nothing to multiply; backend.Gemm needs non-empty operands
		for i := range count {
			for r := range m {
				row := cv[i*strideC+r*ldc:][:n]
				for j := range row {
					if beta == 0 { // BLAS: c is not read, so NaN in c does not survive
						row[j] = 0
					} else {
						row[j] *= beta
					}
				}
			}
		}
		return nil
	}
	for i := range count {
		backend.Gemm(trans(transA), trans(transB), m, n, k, alpha, av[i*strideA:][:na], lda,
			bv[i*strideB:][:nb], ldb, beta, cv[i*strideC:][:nc], ldc)
	}
	return nil
}

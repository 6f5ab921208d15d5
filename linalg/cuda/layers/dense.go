package layers

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

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

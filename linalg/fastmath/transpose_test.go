package fastmath

import "testing"

func TestTranspose(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {3, 5}, {16, 16}, {17, 33}, {384, 128}} {
		rows, cols := sz[0], sz[1]
		src := make([]float64, rows*cols)
		for i := range src {
			src[i] = float64(i)
		}
		dst := make([]float64, rows*cols)
		Transpose(dst, src, rows, cols)
		for r := range rows {
			for c := range cols {
				if dst[c*rows+r] != src[r*cols+c] {
					t.Fatalf("%d x %d: dst[%d][%d] = %v, want %v", rows, cols, c, r, dst[c*rows+r], src[r*cols+c])
				}
			}
		}
	}
}

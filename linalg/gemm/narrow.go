package gemm

import "sync"

// Products whose c is narrow on one side waste much of a kernel's tile, which is mr rows by nr
// columns. Two kinds of the training step's weight gradients are computed another way, each
// element still the same chain of FMAs over k in the same blocks of k, so that they round as
// the kernel on the product itself does (narrow_test.go).

// A product of at most mr/4 rows (an input layer's weight gradient over its 2 input features)
// fills 2 of the AVX-512 kernel's 12 rows; its row kernel computes each row alone, with two
// FMAs for each b vector it loads instead of the 12-row kernel's 24, of which 4 are used.

// byRows reports whether gemm computes the product row by row with kn's row kernel: op(b)
// untransposed (a transposed b would be packed again for every row) and m at most a quarter
// of kn's rows.
func byRows(kn *microKernel, tB bool, m int) bool {
	return kn.row != nil && !tB && 4*m <= kn.mr
}

// A weight gradient c = alpha a^T b + beta c with few columns (a is k x m, b is k x n: the
// GRU's input weights over N = 20 features, m = 256 or 128, or a head's 20 outputs over its
// 128 inputs) leaves much of each tile empty: 20 columns are 20 of the AVX-512 kernel's 32. Its
// transpose c^T = alpha b^T a + beta c^T has n rows and m columns, 20 of 24 rows in two row
// groups, and reads b^T as the kernel reads a transposed a (a row group's 12 elements
// contiguous at each step of k) and a as an untransposed b, in place. A product's factors
// commute, so each element's chain of FMAs is the same.

// swapGain is how much less tile work the transpose must take for a product to be computed
// that way: the scratch copy of c and its transpose back cost about a pass over c each.
const swapGain = 0.8

// scratches holds the transposed c of swapped products.
var scratches = sync.Pool{New: func() any { return new([]float32) }}

// swapsNarrow reports whether gemm computes the product c = alpha a^T b + beta c (c m x n) as
// its transpose with kernel kn: where c is narrower than a panel, taller than it is wide, and
// the transpose's tiles (before Sgemm's choice of a narrow kernel) cover at most swapGain of
// the product's.
func swapsNarrow(kn *microKernel, tA, tB bool, m, n int) bool {
	if !tA || tB || n >= kn.nr || m <= n {
		return false
	}
	return float64(tileWork(kn, n, m)) <= swapGain*float64(tileWork(kn, m, n))
}

// tileWork is the number of elements the tiles of an m x n product with kernel kn (or its
// narrow kernel, as Sgemm picks it) compute, c's and the wasted ones.
func tileWork(kn *microKernel, m, n int) int {
	kn = kn.forWidth(n)
	rows := (m + kn.mr - 1) / kn.mr * kn.mr
	cols := n / kn.nr * kn.nr
	switch rest := n % kn.nr; {
	case rest == 0:
	case kn.edge != nil && rest <= kn.edge.nr:
		cols += kn.edge.nr
	default:
		cols += kn.nr
	}
	return rows * cols
}

// gemmSwapped computes c = alpha a^T b + beta c (a k x m, b k x n, c m x n) as c^T = alpha b^T
// a + beta c^T in a scratch copy of c^T, then writes it back to c.
func gemmSwapped(kn *microKernel, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sp := scratches.Get().(*[]float32)
	defer scratches.Put(sp)
	if cap(*sp) < m*n {
		*sp = make([]float32, m*n)
	}
	ct := (*sp)[:m*n]
	if beta != 0 {
		for i := range m {
			for j, v := range c[i*ldc:][:n] {
				ct[j*m+i] = v
			}
		}
	}
	kn.forWidth(m).gemm(true, false, n, m, k, alpha, b, ldb, a, lda, beta, ct, m)
	for i := range m {
		row := c[i*ldc:][:n]
		for j := range row {
			row[j] = ct[j*m+i]
		}
	}
}

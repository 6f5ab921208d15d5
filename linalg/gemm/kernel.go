package gemm

// microKernel is a register-blocked kernel for one mr x nr tile of c and what the driver needs
// to feed it.
type microKernel struct {
	name   string
	mr, nr int
	// tile sets the tile c (row stride ldc) to alpha acc + beta c, or to alpha acc without
	// reading c when beta is zero, where acc = sum over p < kc of a[r*rs + p*ps] times
	// b[p*bs + j] for rows r < mr and columns j < nr. kc >= 1. Only rows r0 <= r < r1 and
	// columns < nw of c are read or written; kernels without partial take the whole tile only.
	tile tileFunc
	// sweep, when not nil, is tile over tiles whole tiles in one call: tile t reads a[t*aStep:]
	// and b[t*bStep:] and sets c[t*cStep:], for t < tiles. The driver sweeps down a panel's
	// row groups, or, where kc is small, across a row group's panels; it saves a call per tile.
	sweep sweepFunc
	// partial says tile handles partial tiles itself; for other kernels the driver computes
	// those in a scratch tile and merges it into c.
	partial bool
	// narrow, when not nil, is the kernel to use instead when c has at most narrow.nr columns:
	// the same rows with fewer columns, so less of the tile is wasted.
	narrow *microKernel
	// row, when not nil, is the kernel of one row for products with one column and c
	// contiguous, which Sgemm computes as their transpose, c^T = alpha op(b)^T op(a)^T + beta
	// c^T: every element is still one chain of FMAs over k (a product's factors commute), so it
	// rounds as this kernel does, and no lane of a tile computes a column past the one (this
	// kernel's narrowest tile wastes 15 of 16 on such a product); and, row by row, of products
	// with at most mr/4 rows (byRows).
	row *microKernel
	// column, when not nil, is the faster way to such a product with op(a) = a untransposed:
	// it sets c[i] for i < done, done a multiple of its rows, op(b)[p] being b[p*bs], and
	// leaves the other rows to row. Each element is the same chain as in row.
	column func(m, k int, alpha float32, a []float32, lda int, b []float32, bs int, beta float32, c []float32) (done int)
	// edge, when not nil, is the kernel for a last, partial panel of at most edge.nr columns:
	// the same rows, fewer columns. Unlike narrow it is used within a product, so it rounds
	// as the kernel does (every kernel does) and has the same mr.
	edge *microKernel
	// packsTransA says the kernel reads a transposed a faster from a copy in rows whatever lda
	// is (see packTransA).
	packsTransA bool
	// copyPanel, when not nil, copies kc rows of nr floats, row p from src[p*lds:], into dst
	// one after another (kc >= 1).
	copyPanel func(dst, src []float32, lds, kc int)
	// transpose16, when not nil, sets dst[i*lddst+j] = src[j*ldsrc+i] for i, j < 16.
	transpose16 func(dst []float32, lddst int, src []float32, ldsrc int)
}

// forWidth returns the kernel Sgemm runs on a product of n columns: kn, or its narrow kernel
// where n is at most its width.
func (kn *microKernel) forWidth(n int) *microKernel {
	if kn.narrow != nil && n <= kn.narrow.nr {
		return kn.narrow
	}
	return kn
}

// active is the kernel Sgemm uses, the fastest this CPU runs (set by the build's init).
var active = &goKernel

// supported lists every kernel this CPU and build can run, for the tests (set by the build's
// init).
var supported = []*microKernel{&goKernel}

// checkTile panics unless a, b and c hold the elements a kernel call with these strides reads
// and writes: the assembly kernels index with raw pointers, so this is their bounds check.
func checkTile(mr, nr, kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc, r0, r1, nw int) {
	if len(a) <= (mr-1)*rs+(kc-1)*ps || len(b) < (kc-1)*bs+nr || len(c) < (r1-1)*ldc+nw ||
		r0 < 0 || r0 >= r1 || r1 > mr || nw < 1 || nw > nr {
		panic("gemm: micro-kernel operands out of range")
	}
}

// tileFunc is microKernel.tile.
type tileFunc func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, r0, r1, nw int)

// sweepFunc is microKernel.sweep.
type sweepFunc func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, tiles, aStep, bStep, cStep int)

// sweptTile returns microKernel.tile for a kernel without partial tiles that has sweep: a
// sweep of one tile.
func sweptTile(sweep sweepFunc) tileFunc {
	return func(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, _, _, _ int) {
		sweep(kc, a, rs, ps, b, bs, c, ldc, alpha, beta, 1, 0, 0, 0)
	}
}

// checkSweep is checkTile for a sweep of tiles whole tiles (see microKernel.sweep).
func checkSweep(mr, nr, kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc, tiles, aStep, bStep, cStep int) {
	last := tiles - 1
	if tiles < 1 || aStep < 0 || bStep < 0 || cStep < 0 || len(a) <= last*aStep+(mr-1)*rs+(kc-1)*ps ||
		len(b) < last*bStep+(kc-1)*bs+nr || len(c) < last*cStep+(mr-1)*ldc+nr {
		panic("gemm: micro-kernel sweep operands out of range")
	}
}

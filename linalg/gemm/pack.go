package gemm

// The packers leave the padding of a partial panel (rows past mh, columns past nw) as it was:
// the kernels compute those rows and columns of the tile too, but no one stores them.

// packTransB copies op(b) rows pc..pc+kc, columns jc..jc+nc, of a transposed b (stored n x k)
// into dst as column panels of kn.nr: panel q holds columns q*nr.. row by row (kc x nr).
// rows16 is scratch for 16 rows of kcBlock.
func (kn *microKernel) packTransB(dst, rows16, b []float32, ldb, pc, kc, jc, nc int) {
	nr := kn.nr
	for j0 := 0; j0 < nc; j0 += nr {
		panel := dst[j0*kc:][:kc*nr]
		w := min(nr, nc-j0)
		src := b[(jc+j0)*ldb+pc:] // row j of src is column j of op(b)
		switch {
		case kn.transpose16 == nil || kc < 16:
			for p := range kc {
				d := panel[p*nr : p*nr+w]
				for j := range d {
					d[j] = src[j*ldb+p]
				}
			}
		case w < 16: // fewer than 16 rows to transpose: copy them into a block of 16 first
			copyRows(rows16, kcBlock, src, ldb, w, kc)
			kn.transposeBlocks(panel, nr, rows16, kcBlock, 16, kc)
		default:
			kn.transposeBlocks(panel, nr, src, ldb, w, kc)
		}
	}
}

// transposeBlocks sets dst[p*lddst+j] = src[j*ldsrc+p] for j < w and p < kc (w, kc >= 16)
// by 16 x 16 transposes; the last ones in each direction overlap the one before when w or kc
// is not a multiple of 16, rewriting equal values.
func (kn *microKernel) transposeBlocks(dst []float32, lddst int, src []float32, ldsrc, w, kc int) {
	for p := 0; p < kc; p += 16 {
		p = min(p, kc-16)
		for j := 0; j < w; j += 16 {
			j = min(j, w-16)
			kn.transpose16(dst[p*lddst+j:], lddst, src[j*ldsrc+p:], ldsrc)
		}
	}
}

// copyRows copies h rows of length kc from src (row stride ldsrc) to dst (row stride lddst).
func copyRows(dst []float32, lddst int, src []float32, ldsrc, h, kc int) {
	for j := range h {
		copy(dst[j*lddst:j*lddst+kc], src[j*ldsrc:])
	}
}

// packEdgeB copies op(b) rows pc..pc+kc, columns j..j+nw (nw < nr), of an untransposed b into
// dst row by row with row length nr, and zeroes the nr - nw columns past them. The kernel
// computes those columns and drops them; left as they were they hold whatever the pooled buffer
// last held, and subnormal leftovers made every FMA of the kernel take a microcode assist (the gm
// critic's 51,200 x 32 x 1 product: 20-35 ms in the step, 0.5-1 ms alone).
func packEdgeB(dst []float32, nr int, b []float32, ldb, pc, kc, j, nw int) {
	for p := range kc {
		d, s := dst[p*nr:p*nr+nw], b[(pc+p)*ldb+j:]
		for c := range d { // a loop, not copy: rows are short, a call per row costs more
			d[c] = s[c]
		}
		clear(dst[p*nr+nw : p*nr+nr])
	}
}

// packEdgeA copies op(a) rows i..i+mh (mh < mr), columns pc..pc+kc, into dst column by column,
// the rows past mh zeroed (see packEdgeB), and returns the column stride it used (mr, or 16
// where it transposes 16 x 16 blocks);
// op(a)[i][p] is a[i*rs + p*ps]. rows16 is scratch for 16 rows of kcBlock.
func (kn *microKernel) packEdgeA(dst, rows16 []float32, a []float32, rs, ps, i, mh, pc, kc int) int {
	mr := kn.mr
	switch {
	case ps != 1: // columns of op(a) are contiguous
		for p := range kc {
			d, s := dst[p*mr:p*mr+mh], a[i*rs+(pc+p)*ps:]
			for r := range d {
				d[r] = s[r]
			}
			clear(dst[p*mr+mh : p*mr+mr])
		}
	case kn.transpose16 != nil && kc >= 16: // rows are contiguous: transpose them
		copyRows(rows16, kcBlock, a[i*rs+pc:], rs, mh, kc)
		for r := mh; r < 16; r++ { // the rows past the group, zeroed as packEdgeB's columns
			clear(rows16[r*kcBlock : r*kcBlock+kc])
		}
		kn.transposeBlocks(dst, 16, rows16, kcBlock, 16, kc)
		return 16
	default:
		for p := range kc {
			d := dst[p*mr : p*mr+mh]
			for r := range d {
				d[r] = a[(i+r)*rs+pc+p]
			}
			clear(dst[p*mr+mh : p*mr+mr])
		}
	}
	return mr
}

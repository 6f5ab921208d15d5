package gemm

// The packers leave the padding of a partial panel (rows past mh, columns past nw) as it was:
// the kernels compute those rows and columns of the tile too, but no one stores them.

// packTransB copies op(b) rows pc..pc+kc, columns jc..jc+nc, of a transposed b (stored n x k)
// into dst as column panels of kn.nr: panel q holds columns q*nr.. row by row (kc x nr).
func (kn *microKernel) packTransB(dst, b []float32, ldb, pc, kc, jc, nc int) {
	nr := kn.nr
	for j0 := 0; j0 < nc; j0 += nr {
		panel := dst[j0*kc:][:kc*nr]
		w := min(nr, nc-j0)
		src := b[(jc+j0)*ldb+pc:] // row j of src is column j of op(b)
		if kn.transpose16 != nil && w >= 16 && kc >= 16 {
			// 16 x 16 transposes cover the panel; the last ones in each direction overlap
			// the one before when w or kc is not a multiple of 16, rewriting equal values.
			for p := 0; p < kc; p += 16 {
				p = min(p, kc-16)
				for j := 0; j < w; j += 16 {
					j = min(j, w-16)
					kn.transpose16(panel[p*nr+j:], nr, src[j*ldb+p:], ldb)
				}
			}
			continue
		}
		for j := range w {
			col := panel[j:]
			for p, v := range src[j*ldb : j*ldb+kc] {
				col[p*nr] = v
			}
		}
	}
}

// packEdgeB copies op(b) rows pc..pc+kc, columns j..j+nw (nw < nr), of an untransposed b into
// dst row by row with row length nr.
func packEdgeB(dst []float32, nr int, b []float32, ldb, pc, kc, j, nw int) {
	for p := range kc {
		copy(dst[p*nr:p*nr+nw], b[(pc+p)*ldb+j:])
	}
}

// packEdgeA copies op(a) rows i..i+mh (mh < mr), columns pc..pc+kc, into dst column by column
// with column length mr; op(a)[i][p] is a[i*rs + p*ps].
func packEdgeA(dst []float32, mr int, a []float32, rs, ps, i, mh, pc, kc int) {
	if ps == 1 { // rows of a are contiguous: read them in order
		for r := range mh {
			d := dst[r:]
			for p, v := range a[(i+r)*rs+pc:][:kc] {
				d[p*mr] = v
			}
		}
		return
	}
	for p := range kc { // columns of op(a) are contiguous
		copy(dst[p*mr:p*mr+mh], a[i*rs+(pc+p)*ps:])
	}
}

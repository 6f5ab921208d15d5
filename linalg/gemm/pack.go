package gemm

// packTransB copies op(b) rows pc..pc+kc, columns jc..jc+nc, of a transposed b (stored n x k)
// into dst as column panels of kn.nr: panel q holds columns q*nr.. row by row (kc x nr), the
// columns past nc zero.
func (kn *microKernel) packTransB(dst, b []float32, ldb, pc, kc, jc, nc int) {
	nr := kn.nr
	for j0 := 0; j0 < nc; j0 += nr {
		panel := dst[j0*kc:][:kc*nr]
		w := min(nr, nc-j0)
		src := b[(jc+j0)*ldb+pc:] // row j of src is column j of op(b)
		p0, j16 := 0, 0           // the part done by 16 x 16 transposes
		if kn.transpose16 != nil {
			p0, j16 = kc&^15, w&^15
			for p := 0; p < p0; p += 16 {
				for j := 0; j < j16; j += 16 {
					kn.transpose16(panel[p*nr+j:], nr, src[j*ldb+p:], ldb)
				}
			}
		}
		for j := range w {
			row := src[j*ldb:][:kc]
			pFrom := 0
			if j < j16 {
				pFrom = p0
			}
			for p := pFrom; p < kc; p++ {
				panel[p*nr+j] = row[p]
			}
		}
		if w < nr {
			for p := range kc {
				clear(panel[p*nr+w : p*nr+nr])
			}
		}
	}
}

// packEdgeB copies op(b) rows pc..pc+kc, columns j..j+nw (nw < nr), of an untransposed b into
// dst row by row with row length nr, the columns past nw zero.
func packEdgeB(dst []float32, nr int, b []float32, ldb, pc, kc, j, nw int) {
	for p := range kc {
		d := dst[p*nr : p*nr+nr]
		copy(d, b[(pc+p)*ldb+j:][:nw])
		clear(d[nw:])
	}
}

// packEdgeA copies op(a) rows i..i+mh (mh < mr), columns pc..pc+kc, into dst column by column
// with column length mr, the rows past mh zero; op(a)[i][p] is a[i*rs + p*ps].
func packEdgeA(dst []float32, mr int, a []float32, rs, ps, i, mh, pc, kc int) {
	for p := range kc {
		d := dst[p*mr : p*mr+mr]
		for r := range mh {
			d[r] = a[(i+r)*rs+(pc+p)*ps]
		}
		clear(d[mh:])
	}
}

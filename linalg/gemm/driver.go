package gemm

import (
	"sync"
	"unsafe"
)

// Block sizes (elements). kcBlock x nr floats of b (32 KiB for AVX-512) stay in L1 while the
// kernel sweeps mcBlock rows of a (an mcBlock x kcBlock block of a, about 200 KiB, stays in
// L2); ncBlock bounds the packed copy of a transposed b.
const (
	kcBlock = 256
	mcBlock = 192 // a multiple of every kernel's mr
	ncBlock = 1024
	maxMR   = 12 // at most 16: packEdgeA's transposes write 16 rows
	maxNR   = 32
)

// workspace holds the packing buffers of one Sgemm call, 64-byte aligned.
type workspace struct {
	b      []float32 // a transposed b block, in column panels of nr: up to kcBlock x ncBlock, grown on demand
	a      []float32 // a transposed a block transposed back: mcBlock + maxMR rows of kcBlock, made on demand
	bEdge  []float32 // the last, partial column panel of an untransposed b: kcBlock x nr
	bPanel []float32 // a whole column panel of an untransposed b, copied: kcBlock x nr
	aEdge  []float32 // the last, partial row group of a, column by column: kcBlock x 16
	rows16 []float32 // rows to transpose in blocks of 16: 16 x kcBlock
	tile   []float32 // a partial tile of c: mr x nr
}

var workspaces = sync.Pool{New: func() any {
	return &workspace{
		bEdge:  aligned(kcBlock * maxNR),
		bPanel: aligned(kcBlock * maxNR),
		aEdge:  aligned(kcBlock * 16),
		rows16: aligned(16 * kcBlock),
		tile:   aligned(maxMR * maxNR),
	}
}}

// aligned returns a zeroed slice of n float32 that starts on a 64-byte boundary (a cache line,
// and the width of an AVX-512 load).
func aligned(n int) []float32 {
	s := make([]float32, n+16)
	off := int(uintptr(unsafe.Pointer(&s[0]))%64) / 4
	if off != 0 {
		off = 16 - off
	}
	return s[off : off+n : off+n]
}

// gemm computes c = alpha op(a) op(b) + beta c with kernel kn for valid arguments, m, n, k > 0
// and alpha != 0.
func (kn *microKernel) gemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ws := workspaces.Get().(*workspace)
	defer workspaces.Put(ws)
	mr, nr := kn.mr, kn.nr
	// op(a)[i][p] is a[i*rsA + p*psA].
	rsA, psA := lda, 1
	if tA {
		rsA, psA = 1, lda
	}
	// An untransposed b is read in place, one row of a panel per k step, ldb floats apart, or,
	// by kernels with copyPanel and where at least four row groups reuse it, from a copy made
	// contiguous just before the panel's sweep: in place, with the AVX2 kernel, the GRU's
	// weight gradients ran at 88% of OpenBLAS's speed; the copy stays in L1.
	packB := !tB && kn.copyPanel != nil && m >= 4*mr
	if tB { // the packed b is sized for this product: the pool is emptied by every other GC
		if need := min(k, kcBlock) * (min(n, ncBlock) + nr); len(ws.b) < need {
			ws.b = aligned(need)
		}
	}
	packA := packTransA(kn, tA, m, n, k, lda)
	if packA && ws.a == nil {
		ws.a = aligned((mcBlock + maxMR) * kcBlock)
	}
	for pc := 0; pc < k; pc += kcBlock {
		kc := min(kcBlock, k-pc)
		betaBlock := beta // later blocks of k add to the first
		if pc > 0 {
			betaBlock = 1
		}
		for jc := 0; jc < n; jc += ncBlock {
			nc := min(ncBlock, n-jc)
			// A transposed b is packed whole, an untransposed one only in its last, partial
			// panel.
			if tB {
				kn.packTransB(ws.b, ws.rows16, b, ldb, pc, kc, jc, nc)
			} else if edge := nc % nr; edge != 0 {
				packEdgeB(ws.bEdge, nr, b, ldb, pc, kc, jc+nc-edge, edge)
			}
			for ic := 0; ic < m; ic += mcBlock {
				mc := min(mcBlock, m-ic)
				// The last row group, when partial, overlaps the one before it if m allows and
				// the kernel can leave rows alone, or beta is zero and it rewrites them with
				// equal values. Otherwise it is read in place where a holds a whole group's
				// extent from there (the rows past m read what follows them, computed but not
				// stored; for a transposed a, the same cache lines as the rows before), and
				// else packed once for the block.
				full := mc - mc%mr
				overlap := m >= mr && (kn.partial || betaBlock == 0)
				edgeInPlace := (ic+full+mr-1)*rsA+(pc+kc-1)*psA < len(a)
				edgeStride := mr
				packed := packA && mc >= 16 && kc >= 16
				if packed { // row i of the block is row i of ws.a, stride kcBlock
					kn.transposeBlocks(ws.a, kcBlock, a[pc*lda+ic:], lda, kc, mc)
				} else if full < mc && !overlap && !edgeInPlace {
					edgeStride = kn.packEdgeA(ws.aEdge, ws.rows16, a, rsA, psA, ic+full, mc-full, pc, kc)
				}
				for jr := 0; jr < nc; jr += nr {
					nw := min(nr, nc-jr)
					// op(b) rows pc.. of columns jc+jr..: in place, or packed.
					var bp []float32
					bs := nr
					switch {
					case tB:
						bp = ws.b[jr*kc:]
					case nw == nr && packB:
						kn.copyPanel(ws.bPanel, b[pc*ldb+jc+jr:], ldb, kc)
						bp = ws.bPanel
					case nw == nr:
						bp, bs = b[pc*ldb+jc+jr:], ldb
					default:
						bp = ws.bEdge
					}
					// A kernel without partial tiles may take the last panel in its narrower
					// edge variant; whole tiles of either run down the block in one sweep.
					tk := kn
					if !kn.partial && kn.edge != nil && nw <= kn.edge.nr {
						tk = kn.edge
					}
					ir := 0
					if tk.sweep != nil && nw == tk.nr && full > 0 {
						ap, rs, ps := a[ic*rsA+pc*psA:], rsA, psA
						if packed {
							ap, rs, ps = ws.a, kcBlock, 1
						}
						tk.sweep(kc, ap, rs, ps, bp, bs, c[ic*ldc+jc+jr:], ldc, alpha, betaBlock, full/mr)
						ir = full
					}
					for ; ir < mc; ir += mr {
						i, r0, r1 := ic+ir, 0, min(mr, mc-ir)
						ap, rs, ps := a[i*rsA+pc*psA:], rsA, psA
						switch {
						case packed: // rows past mc are stale, computed but not stored
							ap, rs, ps = ws.a[ir*kcBlock:], kcBlock, 1
						case r1 < mr && overlap: // rows i-r0.. of which r0.. are new
							r0, r1 = mr-r1, mr
							i -= r0
							ap = a[i*rsA+pc*psA:]
						case r1 < mr && !edgeInPlace:
							ap, rs, ps = ws.aEdge, 1, edgeStride
						}
						ci := i*ldc + jc + jr
						if kn.partial || r1 == mr && nw == tk.nr {
							tk.tile(kc, ap, rs, ps, bp, bs, c[ci:], ldc, alpha, betaBlock, r0, r1, nw)
							continue
						}
						tk.tile(kc, ap, rs, ps, bp, bs, ws.tile, nr, 1, 0, 0, mr, tk.nr)
						mergeTile(c[ci:], ldc, ws.tile, nr, r1, nw, alpha, betaBlock)
					}
				}
			}
		}
	}
}

// packTransA reports whether gemm copies the blocks of a transposed a back into rows (by the
// kernel's register transposes) instead of reading it in place. In place, the kernel takes
// one cache line of a per k step, lda floats apart; when lda is a multiple of 256 floats
// (1 KiB) those lines fall in at most 4 of L1's 64 sets, evict each other and the panel of b,
// and come from L2 again for every tile (the GRU's weight gradient, lda = 4H, ran at 70% of
// OpenBLAS's speed with the AVX2 kernel). The copy pays where at least three panels of b reuse
// it; elsewhere it measured slower, except that the AVX2 kernel (packsTransA), with four times
// the AVX-512 kernel's tiles per block, gains from it whatever lda where m >= 32 (the GRU's
// weight gradient with lda = 384: 81 -> 88 GFLOP/s).
func packTransA(kn *microKernel, tA bool, m, n, k, lda int) bool {
	return tA && kn.transpose16 != nil && (lda%256 == 0 || kn.packsTransA && m >= 32) && n >= 3*kn.nr && m >= 16 && k >= 16
}

// mergeTile sets the mh x nw block c to alpha t + beta c, not reading c when beta is zero.
func mergeTile(c []float32, ldc int, t []float32, ldt, mh, nw int, alpha, beta float32) {
	for r := range mh {
		cr, tr := c[r*ldc:][:nw], t[r*ldt:][:nw]
		if beta == 0 {
			for j, v := range tr {
				cr[j] = alpha * v
			}
			continue
		}
		for j, v := range tr {
			cr[j] = float32(alpha*v) + float32(beta*cr[j]) // rounded as the kernels round
		}
	}
}

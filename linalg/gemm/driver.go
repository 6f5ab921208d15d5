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
	bl := block{kn: kn, ws: ws, a: a, rsA: lda, psA: 1, b: b, ldb: ldb, tB: tB, c: c, ldc: ldc, alpha: alpha}
	if tA { // op(a)[i][p] is a[i*rsA + p*psA]
		bl.rsA, bl.psA = 1, lda
	}
	// An untransposed b is read in place, one row of a panel per k step, ldb floats apart, or,
	// by kernels with copyPanel and where at least four row groups reuse it, from a copy made
	// contiguous just before the panel's sweep: in place, with the AVX2 kernel, the GRU's
	// weight gradients ran at 88% of OpenBLAS's speed; the copy stays in L1.
	copyB := !tB && kn.copyPanel != nil && m >= 4*mr
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
		bl.pc, bl.kc = pc, min(kcBlock, k-pc)
		bl.beta = beta // later blocks of k add to the first
		if pc > 0 {
			bl.beta = 1
		}
		// Where kc is small the tiles are quick to compute and c is the traffic: c is then
		// written row group by row group, across the panels (b's rows, few, stay in L1), and
		// down the panels otherwise, so that a panel of b is reused from L1.
		byRowGroups := bl.kc <= smallKC
		bl.copyB = copyB && !byRowGroups
		for jc := 0; jc < n; jc += ncBlock {
			bl.jc, bl.nc = jc, min(ncBlock, n-jc)
			// A transposed b is packed whole, an untransposed one only in its last, partial
			// panel.
			if tB {
				kn.packTransB(ws.b, ws.rows16, b, ldb, pc, bl.kc, jc, bl.nc)
			} else if edge := bl.nc % nr; edge != 0 {
				packEdgeB(ws.bEdge, nr, b, ldb, pc, bl.kc, jc+bl.nc-edge, edge)
			}
			for ic := 0; ic < m; ic += mcBlock {
				bl.setRows(ic, min(mcBlock, m-ic), m, packA)
				if byRowGroups {
					bl.acrossPanels()
				} else {
					bl.downRows()
				}
			}
		}
	}
}

// smallKC is the largest block of k for which gemm writes c row group by row group.
const smallKC = 32

// block is the product of one mc x kc block of op(a) (rows ic.., k offset pc) and one kc x nc
// block of op(b) (columns jc..) into c, with what its tiles need.
type block struct {
	kn              *microKernel
	ws              *workspace
	a               []float32
	rsA, psA        int // op(a)[i][p] is a[i*rsA + p*psA]
	b               []float32
	ldb             int
	tB, copyB       bool // b transposed (packed whole); panels copied (see gemm)
	c               []float32
	ldc             int
	alpha, beta     float32
	pc, kc, jc, nc  int
	ic, mc, full    int  // full: the rows in whole row groups
	packed, overlap bool // a copied into rows (ws.a); a last partial group overlapping
	edgeInPlace     bool // a last partial group read in place
	edgeStride      int  // the column stride of ws.aEdge
}

// setRows sets the block's rows to ic..ic+mc (of m) and prepares a for them: the copy of a
// transposed a into rows (packA), or the last, partial row group. That group overlaps the one
// before it if m allows and the kernel can leave rows alone, or beta is zero and it rewrites
// them with equal values. Otherwise it is read in place where a holds a whole group's extent
// from there (the rows past m read what follows them, computed but not stored; for a
// transposed a, the same cache lines as the rows before), and else packed once for the block.
func (bl *block) setRows(ic, mc, m int, packA bool) {
	kn, mr := bl.kn, bl.kn.mr
	bl.ic, bl.mc, bl.full = ic, mc, mc-mc%mr
	bl.overlap = m >= mr && (kn.partial || bl.beta == 0)
	bl.edgeInPlace = (ic+bl.full+mr-1)*bl.rsA+(bl.pc+bl.kc-1)*bl.psA < len(bl.a)
	bl.edgeStride = mr
	bl.packed = packA && mc >= 16 && bl.kc >= 16
	if bl.packed { // a is transposed (psA = lda); row i of the block is row i of ws.a, stride kcBlock
		kn.transposeBlocks(bl.ws.a, kcBlock, bl.a[bl.pc*bl.psA+ic:], bl.psA, bl.kc, mc)
	} else if bl.full < mc && !bl.overlap && !bl.edgeInPlace {
		bl.edgeStride = kn.packEdgeA(bl.ws.aEdge, bl.ws.rows16, bl.a, bl.rsA, bl.psA, ic+bl.full, mc-bl.full, bl.pc, bl.kc)
	}
}

// panel returns op(b) rows pc.. of the panel of columns jc+jr.. (nw of them) and its row
// stride: in place, packed, or copied now (copyB).
func (bl *block) panel(jr, nw int) ([]float32, int) {
	ws, nr := bl.ws, bl.kn.nr
	switch {
	case bl.tB:
		return ws.b[jr*bl.kc:], nr
	case nw == nr && bl.copyB:
		bl.kn.copyPanel(ws.bPanel, bl.b[bl.pc*bl.ldb+bl.jc+jr:], bl.ldb, bl.kc)
		return ws.bPanel, nr
	case nw == nr:
		return bl.b[bl.pc*bl.ldb+bl.jc+jr:], bl.ldb
	default:
		return ws.bEdge, nr
	}
}

// kernelFor returns the kernel for a panel of nw columns: a kernel without partial tiles may
// take the last panel in its narrower edge variant.
func (bl *block) kernelFor(nw int) *microKernel {
	if kn := bl.kn; !kn.partial && kn.edge != nil && nw <= kn.edge.nr {
		return kn.edge
	}
	return bl.kn
}

// rowGroup returns op(a) rows ir.. of the block from column pc and their strides.
func (bl *block) rowGroup(ir int) ([]float32, int, int) {
	if bl.packed {
		return bl.ws.a[ir*kcBlock:], kcBlock, 1
	}
	return bl.a[(bl.ic+ir)*bl.rsA+bl.pc*bl.psA:], bl.rsA, bl.psA
}

// downRows computes the block panel by panel, each panel's whole row groups in one sweep.
func (bl *block) downRows() {
	nr, mr := bl.kn.nr, bl.kn.mr
	for jr := 0; jr < bl.nc; jr += nr {
		nw := min(nr, bl.nc-jr)
		bp, bs := bl.panel(jr, nw)
		tk := bl.kernelFor(nw)
		ir := 0
		if tk.sweep != nil && nw == tk.nr && bl.full > 0 {
			ap, rs, ps := bl.rowGroup(0)
			tk.sweep(bl.kc, ap, rs, ps, bp, bs, bl.c[bl.ic*bl.ldc+bl.jc+jr:], bl.ldc, bl.alpha, bl.beta, bl.full/mr, mr*rs, 0, mr*bl.ldc)
			ir = bl.full
		}
		for ; ir < bl.mc; ir += mr {
			bl.tile(tk, ir, jr, nw, bp, bs)
		}
	}
}

// acrossPanels computes the block row group by row group, each whole group's whole panels in
// one sweep.
func (bl *block) acrossPanels() {
	nr, mr := bl.kn.nr, bl.kn.mr
	whole := bl.nc - bl.nc%nr // columns in whole panels
	for ir := 0; ir < bl.mc; ir += mr {
		jr := 0
		if kn := bl.kn; kn.sweep != nil && ir < bl.full && whole > 0 {
			ap, rs, ps := bl.rowGroup(ir)
			bp, bs := bl.panel(0, nr)
			bStep := nr // the next panel: in place, or packed one after another
			if bl.tB {
				bStep = bl.kc * nr
			}
			kn.sweep(bl.kc, ap, rs, ps, bp, bs, bl.c[(bl.ic+ir)*bl.ldc+bl.jc:], bl.ldc, bl.alpha, bl.beta, whole/nr, 0, bStep, nr)
			jr = whole
		}
		for ; jr < bl.nc; jr += nr {
			nw := min(nr, bl.nc-jr)
			bp, bs := bl.panel(jr, nw)
			bl.tile(bl.kernelFor(nw), ir, jr, nw, bp, bs)
		}
	}
}

// tile computes the tile of rows ir.. and columns jr.. (nw of them) of the block with kernel
// tk and the panel bp (row stride bs): in place, or through the scratch tile where the kernel
// cannot store it whole.
func (bl *block) tile(tk *microKernel, ir, jr, nw int, bp []float32, bs int) {
	kn, mr, nr := bl.kn, bl.kn.mr, bl.kn.nr
	i, r0, r1 := bl.ic+ir, 0, min(mr, bl.mc-ir)
	ap, rs, ps := bl.rowGroup(ir) // packed: rows past mc are stale, computed but not stored
	switch {
	case bl.packed:
	case r1 < mr && bl.overlap: // rows i-r0.. of which r0.. are new
		r0, r1 = mr-r1, mr
		i -= r0
		ap = bl.a[i*bl.rsA+bl.pc*bl.psA:]
	case r1 < mr && !bl.edgeInPlace:
		ap, rs, ps = bl.ws.aEdge, 1, bl.edgeStride
	}
	ci := i*bl.ldc + bl.jc + jr
	if kn.partial || r1 == mr && nw == tk.nr {
		tk.tile(bl.kc, ap, rs, ps, bp, bs, bl.c[ci:], bl.ldc, bl.alpha, bl.beta, r0, r1, nw)
		return
	}
	tk.tile(bl.kc, ap, rs, ps, bp, bs, bl.ws.tile, nr, 1, 0, 0, mr, tk.nr)
	mergeTile(bl.c[ci:], bl.ldc, bl.ws.tile, nr, r1, nw, bl.alpha, bl.beta)
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

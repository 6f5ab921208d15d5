package gemm

// goKernel is the plain Go micro-kernel: 4 x 4 tiles, sixteen scalar accumulators.
var goKernel = microKernel{name: "go", mr: 4, nr: 4, tile: tileGo}

// tileGo is microKernel.tile for 4 x 4 tiles in plain Go.
func tileGo(kc int, a []float32, rs, ps int, b []float32, bs int, c []float32, ldc int, alpha, beta float32, _, _, _ int) {
	checkTile(4, 4, kc, a, rs, ps, b, bs, c, ldc, 0, 4, 4)
	var c00, c01, c02, c03, c10, c11, c12, c13, c20, c21, c22, c23, c30, c31, c32, c33 float32
	ai, bi := 0, 0
	for range kc {
		a0, a1, a2, a3 := a[ai], a[ai+rs], a[ai+2*rs], a[ai+3*rs]
		bp := b[bi : bi+4 : bi+4]
		b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
		c00, c01, c02, c03 = c00+a0*b0, c01+a0*b1, c02+a0*b2, c03+a0*b3
		c10, c11, c12, c13 = c10+a1*b0, c11+a1*b1, c12+a1*b2, c13+a1*b3
		c20, c21, c22, c23 = c20+a2*b0, c21+a2*b1, c22+a2*b2, c23+a2*b3
		c30, c31, c32, c33 = c30+a3*b0, c31+a3*b1, c32+a3*b2, c33+a3*b3
		ai += ps
		bi += bs
	}
	storeRow4(c[0:4:4], c00, c01, c02, c03, alpha, beta)
	storeRow4(c[ldc:ldc+4:ldc+4], c10, c11, c12, c13, alpha, beta)
	storeRow4(c[2*ldc:2*ldc+4:2*ldc+4], c20, c21, c22, c23, alpha, beta)
	storeRow4(c[3*ldc:3*ldc+4:3*ldc+4], c30, c31, c32, c33, alpha, beta)
}

// storeRow4 sets row (length 4) to alpha acc + beta row, not reading row when beta is zero.
func storeRow4(row []float32, x0, x1, x2, x3, alpha, beta float32) {
	if beta == 0 {
		row[0], row[1], row[2], row[3] = alpha*x0, alpha*x1, alpha*x2, alpha*x3
		return
	}
	// The conversions round each product, as the assembly kernels and mergeTile do.
	row[0] = float32(alpha*x0) + float32(beta*row[0])
	row[1] = float32(alpha*x1) + float32(beta*row[1])
	row[2] = float32(alpha*x2) + float32(beta*row[2])
	row[3] = float32(alpha*x3) + float32(beta*row[3])
}

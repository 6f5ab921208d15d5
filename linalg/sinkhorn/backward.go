package sinkhorn

// backwardOne computes dX for one n x n matrix from dM and the matrix's saved half-steps (len
// 2*iters*n*n, layout in forward.go), working in place in dx. w is scratch of len 3*n.
//
// Half-step s maps z to y = z - lse(z) along its axis, so dz = dy - P_s * sum(dy) along that
// axis. Walking back, each iteration's column step and the row step before it share one pass
// over the rows: the column step needs the column sums of d, which the previous pass
// accumulated, and the row step needs only each row's own sum. Rows go in pairs, as in
// rowFused.
func backwardOne[T Float](dx, dm, saved []T, n int, invTau float64, iters int, w []float64) {
	if n == 0 {
		return
	}
	nn := n * n
	colSum, next, coef := w[:n], w[n:2*n], w[2*n:3*n]
	clear(colSum)
	// dz of the last half-step: dM * M, M being stored in full.
	mOut := saved[(2*iters-1)*nn : 2*iters*nn]
	for i := 0; i < n; i++ {
		d, g, p := dx[i*n:(i+1)*n], dm[i*n:(i+1)*n], mOut[i*n:(i+1)*n]
		d, p, colSum := d[:len(g)], p[:len(g)], colSum[:len(g)]
		for j, v := range g {
			e := float64(v) * float64(p[j])
			d[j] = T(e)
			colSum[j] += e
		}
	}
	for l := iters - 1; l >= 0; l-- {
		pRow, pCol := saved[2*l*nn:(2*l+1)*nn], saved[(2*l+1)*nn:(2*l+2)*nn]
		// Column step 2l+1: d -= P * colSum, with P either stored or P_row times scales.
		base := pCol
		if pCol[0] < 0 {
			base = pRow
			for j, c := range colSum {
				coef[j] = -float64(pCol[j]) * c
			}
		} else {
			copy(coef, colSum)
		}
		// Row step 2l, and dX = dz0/tau after the first.
		k := 1.0
		if l == 0 {
			k = invTau
		}
		clear(next)
		i := 0
		for ; i+2 <= n; i += 2 {
			d0, d1 := dx[i*n:(i+1)*n], dx[(i+1)*n:(i+2)*n]
			r0, r1 := subDot2(d0, d1, base[i*n:(i+1)*n], base[(i+1)*n:(i+2)*n], coef)
			subAcc2(d0, d1, pRow[i*n:(i+1)*n], pRow[(i+1)*n:(i+2)*n], r0, r1, k, next)
		}
		if i < n {
			d := dx[i*n : (i+1)*n]
			r := subDot(d, base[i*n:(i+1)*n], coef)
			subAcc(d, pRow[i*n:(i+1)*n], r, k, next)
		}
		colSum, next = next, colSum
	}
}

// subDot2 sets d0 -= b0*c and d1 -= b1*c elementwise and returns the sums of the unrounded new
// d0 and d1.
func subDot2[T Float](d0, d1, b0, b1 []T, c []float64) (r0, r1 float64) {
	d0, d1, b0, b1 = d0[:len(c)], d1[:len(c)], b0[:len(c)], b1[:len(c)]
	for j, s := range c {
		e0, e1 := float64(d0[j])-float64(b0[j])*s, float64(d1[j])-float64(b1[j])*s
		d0[j], d1[j] = T(e0), T(e1)
		r0 += e0
		r1 += e1
	}
	return r0, r1
}

// subDot sets d -= b*c elementwise and returns the sum of the unrounded new d.
func subDot[T Float](d, b []T, c []float64) float64 {
	d, b = d[:len(c)], b[:len(c)]
	r := 0.0
	for j, s := range c {
		e := float64(d[j]) - float64(b[j])*s
		d[j] = T(e)
		r += e
	}
	return r
}

// subAcc2 sets d0 = (d0 - p0*r0)*k and d1 = (d1 - p1*r1)*k elementwise and adds the unrounded
// results into acc.
func subAcc2[T Float](d0, d1, p0, p1 []T, r0, r1, k float64, acc []float64) {
	d0, d1, p0, p1 = d0[:len(acc)], d1[:len(acc)], p0[:len(acc)], p1[:len(acc)]
	for j := range acc {
		e0, e1 := (float64(d0[j])-float64(p0[j])*r0)*k, (float64(d1[j])-float64(p1[j])*r1)*k
		d0[j], d1[j] = T(e0), T(e1)
		acc[j] += e0 + e1
	}
}

// subAcc sets d = (d - p*r)*k elementwise and adds the unrounded results into acc.
func subAcc[T Float](d, p []T, r, k float64, acc []float64) {
	d, p = d[:len(acc)], p[:len(acc)]
	for j := range acc {
		e := (float64(d[j]) - float64(p[j])*r) * k
		d[j] = T(e)
		acc[j] += e
	}
}

package gru

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/parallel"
)

// Backward computes the gradients of a loss through Forward, given dout (B, T, H), the
// gradient with respect to Forward's out. It OVERWRITES dx (B, T, I), dwih, dwhh, dbih, dbhh,
// and dh0 (B, H) when non-nil (the gradient with respect to the initial state, also when
// Forward ran from a zero state). x, wih and whh are Forward's inputs, saved is what Forward
// stored, reverse must match; the initial state is not needed again (saved has it). work
// (WorkLen) is scratch.
//
// The time loop only runs the gate arithmetic and one (B x 3H) x (3H x H) GEMM per step for
// the state gradient; the per-step gate gradients are kept for all steps so the weight,
// bias and input gradients are a few large GEMMs over all B*T rows afterwards.
func Backward[F Float](d Dims, dx, dh0, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work []F, reverse bool) {
	checkDims(d)
	b, t, in, h := d.B, d.T, d.I, d.H
	checkLen("dx", dx, b*t*in, false)
	checkLen("dh0", dh0, b*h, true)
	checkLen("dwih", dwih, 3*h*in, false)
	checkLen("dwhh", dwhh, 3*h*h, false)
	checkLen("dbih", dbih, 3*h, false)
	checkLen("dbhh", dbhh, 3*h, false)
	checkLen("dout", dout, b*t*h, false)
	checkLen("x", x, b*t*in, false)
	checkLen("wih", wih, 3*h*in, false)
	checkLen("whh", whh, 3*h*h, false)
	checkMin("saved", saved, SavedLen(d))
	checkMin("work", work, WorkLen(d))

	const sc, gc = savedCols, gradCols
	g := work[:b*t*gc*h]                   // gate gradients, one row per (b, t); see gradCols
	carry := work[len(g):][:b*h]           // gradient w.r.t. the state entering the current step
	ones := work[len(g)+len(carry):][:b*t] // for column sums
	clear(carry)

	var ti int
	rows := func(_, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			k := bi*t + ti
			backwardRow(h, g[k*gc*h:][:gc*h], carry[bi*h:][:h], dout[k*h:][:h], saved[k*sc*h:][:sc*h])
		}
	}
	for s := t - 1; s >= 0; s-- {
		ti = timeAt(s, t, reverse)
		if b*h < minParallel {
			rows(0, 0, b)
		} else {
			parallel.For(b, rows)
		}
		if s > 0 || dh0 != nil {
			// carry += dgh Whh, with dgh the step's hidden-projection gradients (B x 3H, strided).
			gemm(blas.NoTrans, blas.NoTrans, b, h, 3*h, 1, g[ti*gc*h+h:], t*gc*h, whh, h, 1, carry, h)
		}
	}
	if dh0 != nil {
		copy(dh0, carry)
	}

	bt := b * t
	ld := gc * h
	// dWhh = dgh^T Hprev, over all B*T rows; Hprev is saved's last column.
	gemm(blas.Trans, blas.NoTrans, 3*h, h, bt, 1, g[h:], ld, saved[4*h:], sc*h, 0, dwhh, h)
	// The input-projection gradients are columns [r z] = H..3H then [n] = 0..H of g.
	gemm(blas.Trans, blas.NoTrans, 2*h, in, bt, 1, g[h:], ld, x, in, 0, dwih[:2*h*in], in)
	gemm(blas.Trans, blas.NoTrans, h, in, bt, 1, g, ld, x, in, 0, dwih[2*h*in:], in)
	gemm(blas.NoTrans, blas.NoTrans, bt, in, 2*h, 1, g[h:], ld, wih[:2*h*in], in, 0, dx, in)
	gemm(blas.NoTrans, blas.NoTrans, bt, in, h, 1, g, ld, wih[2*h*in:], in, 1, dx, in)

	for i := range ones {
		ones[i] = 1
	}
	colSums(bt, 2*h, g[h:], ld, ones, dbih[:2*h])
	colSums(bt, h, g, ld, ones, dbih[2*h:])
	copy(dbhh[:2*h], dbih[:2*h]) // r and z biases enter input and hidden sums alike
	colSums(bt, h, g[3*h:], ld, ones, dbhh[2*h:])
}

// backwardRow does the gate arithmetic of one step for one batch row. carry holds the
// gradient from later steps on entry and dh*z (the direct part of the gradient for the
// previous state) on return; grow receives the pre-activation gradients (see gradCols).
func backwardRow[F Float](h int, grow, carry, dout, srow []F) {
	carry = carry[:h]
	dout = dout[:len(carry)]
	r, z, n := srow[:len(carry)], srow[h:][:len(carry)], srow[2*h:][:len(carry)]
	hn, hp := srow[3*h:][:len(carry)], srow[4*h:][:len(carry)]
	gnx, gr, gz, gnh := grow[:len(carry)], grow[h:][:len(carry)], grow[2*h:][:len(carry)], grow[3*h:][:len(carry)]
	for j := range carry {
		dh := dout[j] + carry[j]
		zj, nj, rj := z[j], n[j], r[j]
		dan := dh * (1 - zj) * (1 - nj*nj)
		gnx[j] = dan
		gnh[j] = dan * rj
		gr[j] = dan * hn[j] * rj * (1 - rj)
		gz[j] = dh * (hp[j] - nj) * zj * (1 - zj)
		carry[j] = dh * zj
	}
}

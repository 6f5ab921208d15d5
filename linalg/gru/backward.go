package gru

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
)

// Backward computes the gradients of a loss through Forward, given dout (B, T, H), the
// gradient with respect to Forward's out. It OVERWRITES dx (B, T, I), dh0 (B, H) (the gradient
// with respect to the initial state, also when Forward ran from a zero state), dwih, dwhh,
// dbih and dbhh. Each of these may be nil when it is not wanted, and its work is then skipped:
// with the weights frozen (nil dwih, dwhh, dbih, dbhh) the large GEMMs over all B*T rows are
// not run. x, wih and whh are Forward's inputs, saved is what Forward stored, reverse must
// match; the initial state is not needed again (saved has it). work (WorkLen) is scratch.
//
// The time loop only runs the gate arithmetic and one (B x 3H) x (3H x H) GEMM per step for
// the state gradient, each goroutine over its own batch rows; the per-step gate gradients are
// kept for all steps so the weight, bias and input gradients are a few large GEMMs over all
// B*T rows afterwards.
func Backward[F Float](d Dims, dx, dh0, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work []F, reverse bool) {
	checkDims(d)
	b, t, in, h := d.B, d.T, d.I, d.H
	checkLen("dx", dx, b*t*in, true)
	checkLen("dh0", dh0, b*h, true)
	checkLen("dwih", dwih, 3*h*in, true)
	checkLen("dwhh", dwhh, 3*h*h, true)
	checkLen("dbih", dbih, 3*h, true)
	checkLen("dbhh", dbhh, 3*h, true)
	checkLen("dout", dout, b*t*h, false)
	checkLen("x", x, b*t*in, false)
	checkLen("wih", wih, 3*h*in, false)
	checkLen("whh", whh, 3*h*h, false)
	checkMin("saved", saved, SavedLen(d))
	checkMin("work", work, WorkLen(d))

	const sc, gc = savedCols, gradCols
	ld := gc * h
	g := work[:b*t*ld]                     // gate gradients, one row per (b, t); see gradCols
	carry := work[len(g):][:b*h]           // gradient w.r.t. the state entering the current step
	ones := work[len(g)+len(carry):][:b*t] // for column sums

	batchRows(b, h, func(_, lo, hi int) {
		c := carry[lo*h : hi*h]
		clear(c)
		for s := t - 1; s >= 0; s-- {
			ti := timeAt(s, t, reverse)
			for bi := lo; bi < hi; bi++ {
				k := bi*t + ti
				backwardRow(h, g[k*ld:][:ld], carry[bi*h:][:h], dout[k*h:][:h], saved[k*sc*h:][:sc*h])
			}
			if s > 0 || dh0 != nil {
				// carry += dgh Whh, with dgh the step's hidden-projection gradients (nb x 3H, strided).
				backend.Gemm(blas.NoTrans, blas.NoTrans, hi-lo, h, 3*h, 1, g[(lo*t+ti)*ld+h:], t*ld, whh, h, 1, c, h)
			}
		}
		if dh0 != nil {
			copy(dh0[lo*h:hi*h], c)
		}
		if dx != nil {
			// The input-projection gradients are columns [r z] = H..3H then [n] = 0..H of g.
			gr, dxr := g[lo*t*ld:hi*t*ld], dx[lo*t*in:hi*t*in]
			backend.Gemm(blas.NoTrans, blas.NoTrans, (hi-lo)*t, in, 2*h, 1, gr[h:], ld, wih[:2*h*in], in, 0, dxr, in)
			backend.Gemm(blas.NoTrans, blas.NoTrans, (hi-lo)*t, in, h, 1, gr, ld, wih[2*h*in:], in, 1, dxr, in)
		}
	})

	bt := b * t
	if dwhh != nil {
		// dWhh = dgh^T Hprev, over all B*T rows; Hprev is saved's last column.
		backend.GemmParallel(blas.Trans, blas.NoTrans, 3*h, h, bt, 1, g[h:], ld, saved[4*h:], sc*h, 0, dwhh, h)
	}
	if dwih != nil {
		backend.GemmParallel(blas.Trans, blas.NoTrans, 2*h, in, bt, 1, g[h:], ld, x, in, 0, dwih[:2*h*in], in)
		backend.GemmParallel(blas.Trans, blas.NoTrans, h, in, bt, 1, g, ld, x, in, 0, dwih[2*h*in:], in)
	}
	if dbih == nil && dbhh == nil {
		return
	}
	for i := range ones {
		ones[i] = 1
	}
	// Columns H..4H of g are dbhh's terms; the r and z biases enter input and hidden sums alike.
	if dbhh != nil {
		backend.ColSums(bt, 3*h, g[h:], ld, ones, dbhh)
	}
	if dbih != nil {
		if dbhh != nil {
			copy(dbih[:2*h], dbhh[:2*h])
		} else {
			backend.ColSums(bt, 2*h, g[h:], ld, ones, dbih[:2*h])
		}
		backend.ColSums(bt, h, g, ld, ones, dbih[2*h:])
	}
}

package gru

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/parallel"
)

// minParallel is the number of elements per step (B*H) above which the gate loops are
// split over goroutines; below it the goroutine start-up costs more than it saves.
const minParallel = 2048

// timeAt returns the time index processed at step s (0 <= s < T).
func timeAt(s, t int, reverse bool) int {
	if reverse {
		return t - 1 - s
	}
	return s
}

// Forward runs the GRU over the sequence and writes out (B, T, H), the state after each step.
// x is (B, T, I); h0 is (B, H) or nil for a zero initial state; wih (3H x I), whh (3H x H),
// bih and bhh (3H) are PyTorch's weight_ih, weight_hh, bias_ih and bias_hh. saved (SavedLen)
// receives what Backward needs and work (WorkLen) is scratch; both are overwritten.
func Forward[F Float](d Dims, out, x, h0, wih, whh, bih, bhh, saved, work []F, reverse bool) {
	checkDims(d)
	b, t, in, h := d.B, d.T, d.I, d.H
	checkLen("out", out, b*t*h, false)
	checkLen("x", x, b*t*in, false)
	checkLen("h0", h0, b*h, true)
	checkLen("wih", wih, 3*h*in, false)
	checkLen("whh", whh, 3*h*h, false)
	checkLen("bih", bih, 3*h, false)
	checkLen("bhh", bhh, 3*h, false)
	checkMin("saved", saved, SavedLen(d))
	checkMin("work", work, WorkLen(d))

	const sc = savedCols
	// Input projections of all B*T rows at once, into columns 0..3H of the saved rows;
	// the gate loop turns them into r, z, n in place.
	gemm(blas.NoTrans, blas.Trans, b*t, 3*h, in, 1, x, in, wih, in, 0, saved, sc*h)

	t0 := timeAt(0, t, reverse)
	for bi := range b {
		hp := saved[(bi*t+t0)*sc*h+4*h:][:h]
		if h0 == nil {
			clear(hp)
		} else {
			copy(hp, h0[bi*h:(bi+1)*h])
		}
	}

	gh := work[:b*3*h] // hidden projections Whh h of the current step, (B x 3H)
	var ti, next int   // time index of the current step and of the next (-1 after the last)
	rows := func(_, lo, hi int) {
		for bi := lo; bi < hi; bi++ {
			o := out[(bi*t+ti)*h:][:h]
			forwardRow(h, saved[(bi*t+ti)*sc*h:][:sc*h], gh[bi*3*h:][:3*h], bih, bhh, o)
			if next >= 0 {
				copy(saved[(bi*t+next)*sc*h+4*h:][:h], o)
			}
		}
	}
	for s := range t {
		ti = timeAt(s, t, reverse)
		if s == 0 && h0 == nil {
			clear(gh)
		} else {
			// The step's starting states are the (B x H) strided rows of saved's last column.
			gemm(blas.NoTrans, blas.Trans, b, 3*h, h, 1, saved[ti*sc*h+4*h:], t*sc*h, whh, h, 0, gh, 3*h)
		}
		next = -1
		if s+1 < t {
			next = timeAt(s+1, t, reverse)
		}
		if b*h < minParallel {
			rows(0, 0, b)
		} else {
			parallel.For(b, rows)
		}
	}
}

// forwardRow finishes one step for one batch row. On entry row holds [Wi x (3H) | - | hprev];
// on return it holds [r | z | n | Whn hprev + bhn | hprev] and hNew the new state.
func forwardRow[F Float](h int, row, gh, bih, bhh, hNew []F) {
	rz := row[:2*h]
	ghrz, bihrz, bhhrz := gh[:len(rz)], bih[:len(rz)], bhh[:len(rz)]
	for j := range rz {
		rz[j] += bihrz[j] + ghrz[j] + bhhrz[j]
	}
	sigmoidInPlace(rz)

	n := row[2*h : 3*h]
	r, hn, hp := row[:len(n)], row[3*h:][:len(n)], row[4*h:][:len(n)]
	ghn, bihn, bhhn := gh[2*h:][:len(n)], bih[2*h:][:len(n)], bhh[2*h:][:len(n)]
	for j := range n {
		hn[j] = ghn[j] + bhhn[j]
		n[j] += bihn[j] + r[j]*hn[j]
	}
	tanhInPlace(n)

	z := row[h:][:len(n)]
	hNew = hNew[:len(n)]
	for j := range hNew {
		hNew[j] = n[j] + z[j]*(hp[j]-n[j])
	}
}

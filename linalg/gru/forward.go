package gru

import (
	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/fastmath"
	"spg-tui/linalg/parallel"
)

// minParallel is the number of elements per step (B*H) above which the batch rows are split
// over goroutines; below it the goroutine start-up costs more than it saves.
const minParallel = 2048

// timeAt returns the time index processed at step s (0 <= s < T).
func timeAt(s, t int, reverse bool) int {
	if reverse {
		return t - 1 - s
	}
	return s
}

// batchRows runs fn over the batch rows [0, b), split over goroutines when a step has at least
// minParallel elements. The rows of a GRU are independent sequences, so each goroutine runs
// every step of its rows, GEMMs included, with no synchronisation between steps.
func batchRows(b, h int, fn func(worker, lo, hi int)) {
	if b*h < minParallel {
		fn(0, 0, b)
		return
	}
	parallel.For(b, fn)
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
	t0 := timeAt(0, t, reverse)
	// Whh^T (H x 3H), made once here so that the per-step products read it in place: with Whh
	// itself as a transposed operand every step's GEMM would repack it.
	whhT := work[3*b*h:][:3*h*h]
	fastmath.Transpose(whhT, whh, 3*h, h)
	batchRows(b, h, func(_, lo, hi int) {
		nb := hi - lo
		// Input projections Wih x of the rows' B*T steps at once, into columns 0..3H of the
		// saved rows; the gate step adds the biases and turns them into r, z, n in place.
		backend.Gemm(blas.NoTrans, blas.Trans, nb*t, 3*h, in, 1, x[lo*t*in:hi*t*in], in, wih, in, 0, saved[lo*t*sc*h:hi*t*sc*h], sc*h)
		for bi := lo; bi < hi; bi++ {
			hp := saved[(bi*t+t0)*sc*h+4*h:][:h]
			if h0 == nil {
				clear(hp)
			} else {
				copy(hp, h0[bi*h:(bi+1)*h])
			}
		}

		gh := work[lo*3*h : hi*3*h] // hidden projections Whh h of the current step
		for s := range t {
			ti := timeAt(s, t, reverse)
			if s == 0 && h0 == nil {
				clear(gh)
			} else {
				// The step's starting states are the (nb x H) strided rows of saved's last column.
				backend.Gemm(blas.NoTrans, blas.NoTrans, nb, 3*h, h, 1, saved[(lo*t+ti)*sc*h+4*h:], t*sc*h, whhT, 3*h, 0, gh, 3*h)
			}
			next := -1 // time index of the next step, whose starting state is this one's output
			if s+1 < t {
				next = timeAt(s+1, t, reverse)
			}
			for bi := lo; bi < hi; bi++ {
				o := out[(bi*t+ti)*h:][:h]
				forwardRow(h, saved[(bi*t+ti)*sc*h:][:sc*h], gh[(bi-lo)*3*h:][:3*h], bih, bhh, o)
				if next >= 0 {
					copy(saved[(bi*t+next)*sc*h+4*h:][:h], o)
				}
			}
		}
	})
}

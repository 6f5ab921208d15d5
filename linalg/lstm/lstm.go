package lstm

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/fastmath"
)

// Float is the element type of the kernels: float32 for training, float64 for gradient checks.
// The types are exact (no ~) because BLAS dispatch needs []float32 or []float64.
type Float interface{ float32 | float64 }

// Dims are the sizes of one LSTM call: batch B, sequence length T, input width I, hidden width H.
type Dims struct{ B, T, I, H int }

// Layout of the saved buffer: one row of savedCols*H values per (b, t), at (b*T+t)*savedCols*H:
// the gates i, f, g, o after their activations, the new cell state c', and the states h and c
// that step t started from. Backward reads all seven.
const savedCols = 7

// SavedLen returns the length of the buffer Forward fills for Backward: 7*B*T*H.
func SavedLen(d Dims) int { return savedCols * d.B * d.T * d.H }

// WorkLen returns the length of the scratch buffer Backward needs (Forward needs none): the
// gate gradients of every step and two state-gradient rows. Its contents are not used between
// calls.
func WorkLen(d Dims) int { return 4*d.B*d.T*d.H + 2*d.B*d.H }

// Forward runs the LSTM over the sequence and writes out (B, T, H), the state h after each step,
// and, if cT is not nil, the final cell state (B, H). x is (B, T, I); h0 and c0 are (B, H) or nil
// for zeros; wih (4H x I), whh (4H x H), bih and bhh (4H) are PyTorch's weight_ih, weight_hh,
// bias_ih and bias_hh. saved (SavedLen) receives what Backward needs.
func Forward[F Float](d Dims, out, cT, x, h0, c0, wih, whh, bih, bhh, saved []F) {
	checkDims(d)
	b, t, in, h := d.B, d.T, d.I, d.H
	checkLen("out", out, b*t*h, false)
	checkLen("cT", cT, b*h, true)
	checkLen("x", x, b*t*in, false)
	checkLen("h0", h0, b*h, true)
	checkLen("c0", c0, b*h, true)
	checkLen("wih", wih, 4*h*in, false)
	checkLen("whh", whh, 4*h*h, false)
	checkLen("bih", bih, 4*h, false)
	checkLen("bhh", bhh, 4*h, false)
	checkMin("saved", saved, SavedLen(d))
	const sc = savedCols
	// Input projections of all B*T steps at once into the gate columns 0..4H of the saved rows.
	backend.Gemm(blas.NoTrans, blas.Trans, b*t, 4*h, in, 1, x, in, wih, in, 0, saved, sc*h)
	for bi := range b {
		row := saved[bi*t*sc*h:][:sc*h]
		hp, cp := row[5*h:6*h], row[6*h:7*h]
		if h0 == nil {
			clear(hp)
		} else {
			copy(hp, h0[bi*h:(bi+1)*h])
		}
		if c0 == nil {
			clear(cp)
		} else {
			copy(cp, c0[bi*h:(bi+1)*h])
		}
	}
	// With Whh itself as the transposed operand every step's GEMM would repack it; over more
	// than one step Whh^T (H x 4H), made once here, is read in place instead.
	whhOp, ldw, tw := whh, h, blas.Trans
	if t > 1 {
		whhT := transposed(whh, 4*h, h)
		defer whhT.release()
		whhOp, ldw, tw = whhT.m, 4*h, blas.NoTrans
	}
	for ti := range t {
		// Add the hidden projections Whh h_prev (strided rows of saved's h column).
		backend.Gemm(blas.NoTrans, tw, b, 4*h, h, 1, saved[ti*sc*h+5*h:], t*sc*h, whhOp, ldw, 1, saved[ti*sc*h:], t*sc*h)
		for bi := range b {
			row := saved[(bi*t+ti)*sc*h:][:sc*h]
			o := out[(bi*t+ti)*h:][:h]
			forwardRow(h, row, bih, bhh, o)
			if ti+1 < t {
				next := saved[(bi*t+ti+1)*sc*h:][:sc*h]
				copy(next[5*h:6*h], o)
				copy(next[6*h:7*h], row[4*h:5*h])
			} else if cT != nil {
				copy(cT[bi*h:(bi+1)*h], row[4*h:5*h])
			}
		}
	}
}

// forwardRow turns one step's gate pre-activations (row[0:4H], biases not yet added) into
// activations in place, and writes c' into row[4H:5H] and h' into o.
func forwardRow[F Float](h int, row, bih, bhh, o []F) {
	for j := range 4 * h {
		row[j] += bih[j] + bhh[j]
	}
	sigmoids(row[:2*h])
	tanhs(row[2*h : 3*h])
	sigmoids(row[3*h : 4*h])
	c, cp := row[4*h:5*h], row[6*h:7*h]
	for j := range h {
		c[j] = row[h+j]*cp[j] + row[j]*row[2*h+j]
	}
	copy(o, c)
	tanhs(o)
	for j := range h {
		o[j] *= row[3*h+j]
	}
}

// Backward propagates dout (B, T, H), the gradient of the loss with respect to the outputs, and
// dcT (B, H, or nil for zero), that with respect to the final cell state, through the sequence
// Forward ran. It writes dx (B, T, I) and, where not nil, dh0 and dc0 (B, H), and adds the
// weight gradients into dwih, dwhh, dbih and dbhh. x and saved are Forward's; work is WorkLen
// scratch. Any of dx, dh0 and dc0 may be nil when not wanted.
func Backward[F Float](d Dims, dout, dcT, x, wih, whh, saved, dx, dh0, dc0, dwih, dwhh, dbih, dbhh, work []F) {
	checkDims(d)
	b, t, in, h := d.B, d.T, d.I, d.H
	checkLen("dout", dout, b*t*h, false)
	checkLen("dcT", dcT, b*h, true)
	checkLen("x", x, b*t*in, false)
	checkLen("whh", whh, 4*h*h, false)
	checkLen("wih", wih, 4*h*in, false)
	checkMin("saved", saved, SavedLen(d))
	checkLen("dx", dx, b*t*in, true)
	checkLen("dh0", dh0, b*h, true)
	checkLen("dc0", dc0, b*h, true)
	checkLen("dwih", dwih, 4*h*in, false)
	checkLen("dwhh", dwhh, 4*h*h, false)
	checkLen("dbih", dbih, 4*h, false)
	checkLen("dbhh", dbhh, 4*h, false)
	checkMin("work", work, WorkLen(d))
	const sc = savedCols
	dg := work[:4*b*t*h]           // gate pre-activation gradients, (B, T, 4H)
	dh := work[4*b*t*h:][:b*h]     // gradient flowing into h of the current step from later ones
	dc := work[4*b*t*h+b*h:][:b*h] // the same for c
	clear(dh)
	if dcT == nil {
		clear(dc)
	} else {
		copy(dc, dcT)
	}
	for ti := t - 1; ti >= 0; ti-- {
		for bi := range b {
			row := saved[(bi*t+ti)*sc*h:][:sc*h]
			g := dg[(bi*t+ti)*4*h:][:4*h]
			dhr, dcr := dh[bi*h:(bi+1)*h], dc[bi*h:(bi+1)*h]
			do := dout[(bi*t+ti)*h:][:h]
			// tanh(c') into the o-gate column of g, each element read before it is overwritten.
			copy(g[3*h:], row[4*h:5*h])
			tanhs(g[3*h:])
			for j := range h {
				ig, fg, gg, og, cp := row[j], row[h+j], row[2*h+j], row[3*h+j], row[6*h+j]
				tc := g[3*h+j]
				dhj := do[j] + dhr[j]
				dcj := dcr[j] + dhj*og*(1-tc*tc)
				g[j] = dcj * gg * ig * (1 - ig)
				g[h+j] = dcj * cp * fg * (1 - fg)
				g[2*h+j] = dcj * ig * (1 - gg*gg)
				g[3*h+j] = dhj * tc * og * (1 - og)
				dcr[j] = dcj * fg
			}
		}
		// dh_prev = dG_t Whh, for every row of the step at once (strided rows of dg).
		backend.Gemm(blas.NoTrans, blas.NoTrans, b, h, 4*h, 1, dg[ti*4*h:], t*4*h, whh, h, 0, dh, h)
	}
	if dh0 != nil {
		copy(dh0, dh)
	}
	if dc0 != nil {
		copy(dc0, dc)
	}
	// Weight gradients over all B*T steps at once: dWih += dG^T X, dWhh += dG^T Hprev.
	backend.Gemm(blas.Trans, blas.NoTrans, 4*h, in, b*t, 1, dg, 4*h, x, in, 1, dwih, in)
	backend.Gemm(blas.Trans, blas.NoTrans, 4*h, h, b*t, 1, dg, 4*h, saved[5*h:], sc*h, 1, dwhh, h)
	if dx != nil {
		backend.Gemm(blas.NoTrans, blas.NoTrans, b*t, in, 4*h, 1, dg, 4*h, wih, in, 0, dx, in)
	}
	for r := range b * t {
		g := dg[r*4*h:][:4*h]
		for j, v := range g {
			dbih[j] += v
			dbhh[j] += v
		}
	}
}

// sigmoids replaces each element of x by its logistic sigmoid: fastmath's vector kernel for
// float32 (relative error about 1e-7), package math for float64.
func sigmoids[F Float](x []F) {
	if x32, ok := any(x).([]float32); ok {
		fastmath.Sigmoid(x32, x32)
		return
	}
	for i, v := range x {
		x[i] = F(1 / (1 + math.Exp(-float64(v))))
	}
}

// tanhs replaces each element of x by its tanh, as sigmoids.
func tanhs[F Float](x []F) {
	if x32, ok := any(x).([]float32); ok {
		fastmath.Tanh(x32, x32)
		return
	}
	for i, v := range x {
		x[i] = F(math.Tanh(float64(v)))
	}
}

// checkDims panics unless every dimension is positive.
func checkDims(d Dims) {
	if d.B <= 0 || d.T <= 0 || d.I <= 0 || d.H <= 0 {
		panic(fmt.Sprintf("lstm: dimensions must be positive, got %+v", d))
	}
}

// checkLen panics unless len(s) == n; a nil s passes when optional.
func checkLen[F Float](name string, s []F, n int, optional bool) {
	if optional && s == nil {
		return
	}
	if len(s) != n {
		panic(fmt.Sprintf("lstm: len(%s) = %d, want %d", name, len(s), n))
	}
}

// checkMin panics unless len(s) >= n.
func checkMin[F Float](name string, s []F, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("lstm: len(%s) = %d, want at least %d", name, len(s), n))
	}
}

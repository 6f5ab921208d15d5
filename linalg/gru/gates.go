package gru

import (
	"math"

	"spg-tui/linalg/fastmath"
)

// forwardRow finishes one step for one batch row. On entry row holds [Wi x (3H) | - | hprev]
// and gh holds Whh hprev (3H); on return row holds [r | z | n | Whn hprev + bhn | hprev] and
// hNew the new state. float32 runs fastmath's fused kernel; float64, for gradient checks, the
// same equations with package math, summed in the same order.
func forwardRow[F Float](h int, row, gh, bih, bhh, hNew []F) {
	if row, ok := any(row).([]float32); ok {
		g, bi, bh, hn := any(gh).([]float32), any(bih).([]float32), any(bhh).([]float32), any(hNew).([]float32)
		fastmath.GRUGates(row[:3*h], g, bi, bh, row[3*h:4*h], row[4*h:5*h], hn)
		return
	}
	rz := row[:2*h]
	ghrz, bihrz, bhhrz := gh[:len(rz)], bih[:len(rz)], bhh[:len(rz)]
	for j := range rz {
		rz[j] = sigmoid(rz[j] + (bihrz[j] + ghrz[j] + bhhrz[j]))
	}
	n := row[2*h : 3*h]
	r, z, hn, hp := row[:len(n)], row[h:][:len(n)], row[3*h:][:len(n)], row[4*h:][:len(n)]
	ghn, bihn, bhhn := gh[2*h:][:len(n)], bih[2*h:][:len(n)], bhh[2*h:][:len(n)]
	hNew = hNew[:len(n)]
	for j := range n {
		hn[j] = ghn[j] + bhhn[j]
		n[j] = F(math.Tanh(float64(n[j] + (bihn[j] + r[j]*hn[j]))))
		hNew[j] = n[j] + z[j]*(hp[j]-n[j])
	}
}

// sigmoid is 1/(1+e^-v) in float64.
func sigmoid[F Float](v F) F { return F(1 / (1 + math.Exp(-float64(v)))) }

// backwardRow does the gate arithmetic of one step for one batch row. carry holds the
// gradient from later steps on entry and dh*z (the direct part of the gradient for the
// previous state) on return; grow receives the pre-activation gradients (see gradCols). float32
// runs fastmath's vector kernel.
func backwardRow[F Float](h int, grow, carry, dout, srow []F) {
	if g, ok := any(grow).([]float32); ok {
		s := any(srow).([]float32)
		fastmath.GRUGatesBackward(g, any(carry).([]float32), any(dout).([]float32), s[:3*h], s[3*h:4*h], s[4*h:5*h])
		return
	}
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

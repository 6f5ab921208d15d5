package gru

import "math"

// naiveParams are a GRU's inputs in float64, for the scalar reference implementation.
type naiveParams struct {
	x, h0, wih, whh, bih, bhh []float64
}

// naiveForward is a direct, step-by-step scalar transcription of PyTorch's GRU equations;
// h0 may be nil for zeros.
func naiveForward(d Dims, p naiveParams, reverse bool) []float64 {
	out := make([]float64, d.B*d.T*d.H)
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	for b := range d.B {
		hPrev := make([]float64, d.H)
		if p.h0 != nil {
			copy(hPrev, p.h0[b*d.H:])
		}
		for s := range d.T {
			t := s
			if reverse {
				t = d.T - 1 - s
			}
			xt := p.x[(b*d.T+t)*d.I:][:d.I]
			// gi[g*H+j] = (Wih x + bih)[g*H+j], gh likewise with Whh h + bhh.
			gi := make([]float64, 3*d.H)
			gh := make([]float64, 3*d.H)
			for row := range 3 * d.H {
				gi[row] = p.bih[row]
				for k := range d.I {
					gi[row] += p.wih[row*d.I+k] * xt[k]
				}
				gh[row] = p.bhh[row]
				for k := range d.H {
					gh[row] += p.whh[row*d.H+k] * hPrev[k]
				}
			}
			hNew := make([]float64, d.H)
			for j := range d.H {
				r := sig(gi[j] + gh[j])
				z := sig(gi[d.H+j] + gh[d.H+j])
				n := math.Tanh(gi[2*d.H+j] + r*gh[2*d.H+j])
				hNew[j] = (1-z)*n + z*hPrev[j]
			}
			copy(out[(b*d.T+t)*d.H:], hNew)
			hPrev = hNew
		}
	}
	return out
}

// naiveLoss is sum(out * w), whose gradient with respect to out is w.
func naiveLoss(d Dims, p naiveParams, w []float64, reverse bool) float64 {
	var l float64
	for i, o := range naiveForward(d, p, reverse) {
		l += o * w[i]
	}
	return l
}

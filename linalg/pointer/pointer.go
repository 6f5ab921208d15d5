package pointer

import (
	"fmt"
	"math"

	"spg-tui/linalg/fastmath"
)

// Float is the element type of the kernels: float32 for training, float64 for gradient checks.
type Float interface{ float32 | float64 }

// Dims are the sizes of one call: batch B, decoding steps T, elements N, attention width H.
type Dims struct{ B, T, N, H int }

// Scores writes u (B, T, N): u[b][t][j] = v . tanh(ref[b][j] + q[b][t]).
func Scores[F Float](d Dims, ref, q, v, u []F) {
	check(d, len(ref) == d.B*d.N*d.H && len(q) == d.B*d.T*d.H && len(v) == d.H && len(u) == d.B*d.T*d.N, "Scores")
	h := d.H
	a := make([]F, h)
	for b := range d.B {
		for t := range d.T {
			qt := q[(b*d.T+t)*h:][:h]
			ut := u[(b*d.T+t)*d.N:][:d.N]
			for j := range d.N {
				tanhSum(a, ref[(b*d.N+j)*h:][:h], qt)
				s := F(0)
				for k, ak := range a {
					s += v[k] * ak
				}
				ut[j] = s
			}
		}
	}
}

// tanhSum writes tanh(x + y) into dst: fastmath's vector kernel for float32 (relative error
// about 1e-7), package math for float64.
func tanhSum[F Float](dst, x, y []F) {
	for k := range dst {
		dst[k] = x[k] + y[k]
	}
	if d32, ok := any(dst).([]float32); ok {
		fastmath.Tanh(d32, d32)
		return
	}
	for k, v := range dst {
		dst[k] = F(math.Tanh(float64(v)))
	}
}

// ScoresBackward adds the gradients of the loss with respect to ref, q and v into dref, dq and
// dv, given du, its gradient with respect to Scores' output. Elements whose du is zero (masked
// ones) are skipped.
func ScoresBackward[F Float](d Dims, du, ref, q, v, dref, dq, dv []F) {
	check(d, len(du) == d.B*d.T*d.N && len(ref) == d.B*d.N*d.H && len(q) == d.B*d.T*d.H && len(v) == d.H &&
		len(dref) == len(ref) && len(dq) == len(q) && len(dv) == d.H, "ScoresBackward")
	h := d.H
	act := make([]F, h)
	for b := range d.B {
		for t := range d.T {
			qt, dqt := q[(b*d.T+t)*h:][:h], dq[(b*d.T+t)*h:][:h]
			dut := du[(b*d.T+t)*d.N:][:d.N]
			for j, g := range dut {
				if g == 0 {
					continue
				}
				drj := dref[(b*d.N+j)*h:][:h]
				tanhSum(act, ref[(b*d.N+j)*h:][:h], qt)
				for k, a := range act {
					dv[k] += g * a
					dp := g * v[k] * (1 - a*a)
					drj[k] += dp
					dqt[k] += dp
				}
			}
		}
	}
}

// RowProbs writes into p (length N) one step's policy: the softmax of the clipped logits over
// the elements with used[j] false, 0 for the used ones. At least one element must be free.
func RowProbs[F Float](u []F, used []bool, clip float64, p []F) {
	mx := math.Inf(-1)
	for j, x := range u {
		if !used[j] {
			mx = math.Max(mx, logit(x, clip))
		}
	}
	if math.IsInf(mx, -1) {
		panic("pointer: RowProbs with every element used")
	}
	s := 0.0
	for j, x := range u {
		if !used[j] {
			s += math.Exp(logit(x, clip) - mx)
		}
	}
	for j, x := range u {
		if used[j] {
			p[j] = 0
		} else {
			p[j] = F(math.Exp(logit(x, clip)-mx) / s)
		}
	}
}

// logit is C tanh(x), or x when C = 0.
func logit[F Float](x F, clip float64) float64 {
	if clip == 0 {
		return float64(x)
	}
	return clip * math.Tanh(float64(x))
}

// LogProbs writes logp[b][t] = log pi(actions[b][t] | the steps before) for each row's action
// sequence, and the step policies into probs (B, T, N) for LogProbsBackward. The actions of a
// row must be distinct elements of [0, N).
func LogProbs[F Float](d Dims, u []F, clip float64, actions []int, logp, probs []F) {
	check(d, len(u) == d.B*d.T*d.N && len(actions) == d.B*d.T && len(logp) == d.B*d.T && len(probs) == len(u), "LogProbs")
	used := make([]bool, d.N)
	for b := range d.B {
		clear(used)
		for t := range d.T {
			i := b*d.T + t
			ut, pt := u[i*d.N:][:d.N], probs[i*d.N:][:d.N]
			a := actions[i]
			if a < 0 || a >= d.N || used[a] {
				panic(fmt.Sprintf("pointer: row %d step %d: action %d is out of range or chosen before", b, t, a))
			}
			RowProbs(ut, used, clip, pt)
			// log p_a = l_a - logsumexp over the free elements, computed as in RowProbs.
			mx := math.Inf(-1)
			for j, x := range ut {
				if !used[j] {
					mx = math.Max(mx, logit(x, clip))
				}
			}
			s := 0.0
			for j, x := range ut {
				if !used[j] {
					s += math.Exp(logit(x, clip) - mx)
				}
			}
			logp[i] = F(logit(ut[a], clip) - mx - math.Log(s))
			used[a] = true
		}
	}
}

// LogProbsBackward writes du (B, T, N), the gradient with respect to the scores, given dlogp
// (B, T), the gradient with respect to LogProbs' output; u, actions and probs are LogProbs'.
// Used elements get exactly zero.
func LogProbsBackward[F Float](d Dims, dlogp, u []F, clip float64, actions []int, probs, du []F) {
	check(d, len(dlogp) == d.B*d.T && len(u) == d.B*d.T*d.N && len(actions) == d.B*d.T && len(probs) == len(u) && len(du) == len(u), "LogProbsBackward")
	for i := range d.B * d.T {
		g := dlogp[i]
		ut, pt, dut := u[i*d.N:][:d.N], probs[i*d.N:][:d.N], du[i*d.N:][:d.N]
		for j := range dut {
			if pt[j] == 0 && j != actions[i] {
				dut[j] = 0 // used (or a probability that underflowed: no gradient either way)
				continue
			}
			dl := -g * pt[j]
			if j == actions[i] {
				dl += g
			}
			if clip != 0 {
				th := F(math.Tanh(float64(ut[j])))
				dl *= F(clip) * (1 - th*th)
			}
			dut[j] = dl
		}
	}
}

// check panics with the kernel's name unless ok (buffer lengths that do not match d) and d is
// valid.
func check(d Dims, ok bool, name string) {
	if d.B < 1 || d.T < 1 || d.N < 1 || d.T > d.N || d.H < 0 || !ok {
		panic(fmt.Sprintf("pointer: %s: buffers do not match %+v", name, d))
	}
}

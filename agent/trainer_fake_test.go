package agent

import (
	"encoding/binary"
	"errors"
	"math"

	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/run"
)

// fakeLearner is a cheap deterministic stand-in for the SPG networks, so that the training
// machinery can be tested exactly: its "actor" is a row softmax of per-entry logits shifted by
// the state, its "critic" a bias plus a linear function of the action, and both move with every
// update in a way that depends on the whole minibatch (so sampling, buffer and order matter).
type fakeLearner struct {
	n, stateLen int
	w           []float64 // n x n actor logits, also the critic's action weights
	c           float64   // critic bias
	updates     int
	fakeOpts
}

// fakeOpts inject faults and observe the training goroutine. Update numbers count from 1 and
// survive a checkpoint, so they equal the step numbers of the run.
type fakeOpts struct {
	// nanLossAt makes that update report a NaN critic loss.
	nanLossAt int
	// poisonAt makes that update leave NaN parameters behind finite losses.
	poisonAt int
	// hook, if set, is called in the training goroutine after every update.
	hook func(update int)
}

func fakeFactory(o fakeOpts) learnerFactory {
	return func(cfg run.Spec, _ *device.Device) (learn.Learner, error) {
		n := cfg.N
		f := &fakeLearner{n: n, stateLen: cfg.Facts.StateLen(n), w: make([]float64, n*n), fakeOpts: o}
		for i := range f.w {
			f.w[i] = math.Sin(float64(i)*1.7 + float64(cfg.Seed))
		}
		return f, nil
	}
}

func (f *fakeLearner) Act(states []float32, b int, h learn.Hyper, m []float32) error {
	n := f.n
	for k := range b {
		s := states[k*f.stateLen : (k+1)*f.stateLen]
		for i := range n {
			row := m[k*n*n+i*n : k*n*n+(i+1)*n]
			mx := math.Inf(-1)
			x := make([]float64, n)
			for j := range n {
				x[j] = (f.w[i*n+j] + 0.3*float64(s[(i+j)%len(s)])) / h.Tau / 10
				mx = max(mx, x[j])
			}
			sum := 0.0
			for j := range n {
				x[j] = math.Exp(x[j] - mx)
				sum += x[j]
			}
			for j := range n {
				row[j] = float32(x[j] / sum)
			}
		}
	}
	return nil
}

func (f *fakeLearner) q(a []float32) float64 {
	q := f.c
	for i, v := range a {
		q += 0.05 * f.w[i] * float64(v)
	}
	return q
}

func (f *fakeLearner) Update(bt *learn.Minibatch, h learn.Hyper) (learn.StepStats, error) {
	n := f.n
	var st learn.StepStats
	dw := make([]float64, n*n)
	dc := 0.0
	for k := range bt.B {
		p, m := bt.P[k*n*n:(k+1)*n*n], bt.M[k*n*n:(k+1)*n*n]
		qh, qs := f.q(p), f.q(m)
		r := float64(bt.Reward[k])
		st.CriticHard += (r - qh) * (r - qh)
		st.CriticPenalty += (qh - qs) * (qh - qs)
		st.QHard += qh
		st.QSoft += qs
		dc += r - qh
		for i := range dw {
			dw[i] += (r - qh) * (float64(p[i]) - float64(m[i])) * (1 + 0.1*float64(bt.States[k*f.stateLen]))
		}
	}
	b := float64(bt.B)
	st.CriticHard /= b
	st.CriticPenalty /= b
	st.QHard /= b
	st.QSoft /= b
	st.CriticLoss = st.CriticHard
	if h.CriticPenalty {
		st.CriticLoss += st.CriticPenalty
	}
	st.ActorLoss = -st.QSoft
	f.c += h.CriticLR * dc / b
	for i := range f.w {
		f.w[i] += h.ActorLR * dw[i] / b
	}
	f.updates++
	if f.updates == f.nanLossAt {
		st.CriticLoss = math.NaN()
	}
	if f.updates == f.poisonAt {
		f.w[0] = math.NaN()
	}
	if f.hook != nil {
		f.hook(f.updates)
	}
	return st, nil
}

func (f *fakeLearner) Q(states, p, m []float32, b int, qHard, qSoft []float32) error {
	n := f.n
	for k := range b {
		qHard[k] = float32(f.q(p[k*n*n : (k+1)*n*n]))
		qSoft[k] = float32(f.q(m[k*n*n : (k+1)*n*n]))
	}
	return nil
}

func (f *fakeLearner) MarshalBinary() ([]byte, error) {
	var out []byte
	out = binary.LittleEndian.AppendUint64(out, uint64(f.updates))
	out = binary.LittleEndian.AppendUint64(out, math.Float64bits(f.c))
	for _, v := range f.w {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
	}
	return out, nil
}

func (f *fakeLearner) UnmarshalBinary(data []byte) error {
	if len(data) != 16+8*len(f.w) {
		return errors.New("fake learner: wrong length")
	}
	f.updates = int(binary.LittleEndian.Uint64(data))
	f.c = math.Float64frombits(binary.LittleEndian.Uint64(data[8:]))
	for i := range f.w {
		f.w[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[16+8*i:]))
	}
	return nil
}

package ui

import (
	"slices"

	"spg-tui/run"
)

// Bounds of the validations the console keeps whole (Q scatter and samples), so that the step
// cursor can show any of them: every one while there are few, then ever sparser further back.
const (
	// maxKeptVals is how many validations are kept whole; past it every second one of the
	// older half is let go.
	maxKeptVals = 256
	// maxKeptValBytes bounds their size (a gm or TSP-100 sample is kilobytes); past it the
	// older half is thinned the same way.
	maxKeptValBytes = 48 << 20
	// keptM is how many of the latest validations keep their samples' soft permutations M
	// (n² numbers each, sent live only); older ones keep the samples without them.
	keptM = 16
)

// keptVal is a validation kept whole.
type keptVal struct {
	step  int
	ev    *run.Eval
	bytes int
}

// valHistory is the validations kept whole, by step.
type valHistory struct {
	vals  []keptVal
	bytes int
}

// add keeps the validation of step; one without a scatter or samples is not kept.
func (h *valHistory) add(step int, ev *run.Eval) {
	if len(ev.QHardScatter) == 0 && len(ev.Samples) == 0 {
		return
	}
	if n := len(h.vals); n >= keptM {
		old := &h.vals[n-keptM]
		h.bytes -= old.bytes
		old.ev = withoutM(old.ev)
		old.bytes = evalBytes(old.ev)
		h.bytes += old.bytes
	}
	kv := keptVal{step: step, ev: ev, bytes: evalBytes(ev)}
	// A resumed run's records come in step order again; one at a step already kept replaces it.
	i, found := slices.BinarySearchFunc(h.vals, step, func(k keptVal, s int) int { return k.step - s })
	if found {
		h.bytes -= h.vals[i].bytes
		h.vals[i] = kv
	} else {
		h.vals = slices.Insert(h.vals, i, kv)
	}
	h.bytes += kv.bytes
	for len(h.vals) > maxKeptVals || h.bytes > maxKeptValBytes && len(h.vals) > 2 {
		h.thin()
	}
}

// thin lets go of every second validation of the older half, the first kept.
func (h *valHistory) thin() {
	half := len(h.vals) / 2
	out := h.vals[:0]
	for i, k := range h.vals {
		if i < half && i%2 == 1 {
			h.bytes -= k.bytes
			continue
		}
		out = append(out, k)
	}
	clear(h.vals[len(out):])
	h.vals = out
}

// at is the latest validation kept at or before step, and its step; nil when none is.
func (h *valHistory) at(step int) (*run.Eval, int) {
	i, found := slices.BinarySearchFunc(h.vals, step, func(k keptVal, s int) int { return k.step - s })
	if !found {
		i--
	}
	if i < 0 {
		return nil, 0
	}
	return h.vals[i].ev, h.vals[i].step
}

// latest is the latest validation kept, and its step; nil when none is.
func (h *valHistory) latest() (*run.Eval, int) {
	if len(h.vals) == 0 {
		return nil, 0
	}
	k := h.vals[len(h.vals)-1]
	return k.ev, k.step
}

// withoutM is ev with its samples' soft permutations left out (a copy: the record is shared).
func withoutM(ev *run.Eval) *run.Eval {
	if !slices.ContainsFunc(ev.Samples, func(s run.Sample) bool { return s.M != nil }) {
		return ev
	}
	c := *ev
	c.Samples = slices.Clone(ev.Samples)
	for i := range c.Samples {
		c.Samples[i].M = nil
	}
	return &c
}

// evalBytes estimates the memory of a validation's scatter and samples.
func evalBytes(ev *run.Eval) int {
	b := 8 * (len(ev.QHardScatter) + len(ev.QSoftScatter))
	for _, s := range ev.Samples {
		in := s.Instance
		b += 8*(len(s.Perm)+len(s.OptPerm)+len(in.Values)+len(in.Planted)) + 16*(len(in.A)+len(in.B)+len(in.Points)) + 4*len(s.M)
		for _, row := range in.G1 {
			b += len(row)
		}
		for _, row := range in.G2 {
			b += len(row)
		}
	}
	return b
}

// fill completes the kept validations made before their set's references (run.ReferenceFill).
func (h *valHistory) fill(f *run.ReferenceFill) {
	for _, kv := range h.vals {
		f.Fill(kv.ev)
	}
}

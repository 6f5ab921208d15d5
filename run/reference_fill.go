package run

import "math"

// ReferenceFill is what a validation made before its set's references were solved lacks
// (Eval.RefsPending), sent with the references event once they are: the mean objective of the
// optimum, from which each validation's gap follows (0 where the task reports no gap or has no
// exact solver), and the reference solutions of the sample instances.
type ReferenceFill struct {
	Optimum float64     `json:"optimum,omitempty"`
	Samples []SampleRef `json:"samples,omitempty"`
}

// SampleRef is the reference solution of the validation instance Index, shown beside a sample.
type SampleRef struct {
	Index     int     `json:"index"`
	Perm      []int   `json:"perm"`
	Objective float64 `json:"objective"`
	Solver    string  `json:"solver"`
}

// Fill completes ev, a validation made before the references, as it would have been made with
// them; a validation that has them is left as it is.
func (f *ReferenceFill) Fill(ev *Eval) {
	if !ev.RefsPending {
		return
	}
	if f.Optimum != 0 {
		gap := GapOf(ev.Metric, f.Optimum)
		ev.Gap = &gap
	}
	for i := range ev.Samples {
		for _, r := range f.Samples {
			if r.Index == ev.Samples[i].Index {
				r.Put(&ev.Samples[i])
			}
		}
	}
	ev.RefsPending = false
}

// Put sets the reference solution of s, the sample of instance r.Index.
func (r SampleRef) Put(s *Sample) {
	s.OptPerm, s.OptObjective, s.OptSolverName = r.Perm, r.Objective, r.Solver
}

// GapOf is the gap of a mean objective over the optimum's mean objective: mean / optimum - 1,
// with a rounding-sized gap (optimal tours summed in another order, or another optimal tour)
// written as 0, which otherwise prints as -0.00%.
func GapOf(mean, optimum float64) float64 {
	gap := mean/optimum - 1
	if math.Abs(gap) < 1e-9 {
		return 0
	}
	return gap
}

package evalcmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"spg-tui/agent/eval"
	"spg-tui/envs"
)

// fileScore scores an eval's solutions against the reference of its instance file, where one is
// cheap (eval.FileReference).
type fileScore struct {
	env   envs.Env
	insts []envs.Instance
	ref   *eval.Reference
	// took is the time the reference took to solve.
	took time.Duration
}

// newFileScore solves the reference of insts, if it is cheap; a score without one adds nothing.
func newFileScore(env envs.Env, insts []envs.Instance) (*fileScore, error) {
	start := time.Now()
	ref, err := eval.FileReference(env, insts)
	if err != nil {
		return nil, fmt.Errorf("the file's reference: %w", err)
	}
	return &fileScore{env: env, insts: insts, ref: ref, took: time.Since(start)}, nil
}

// of is what the summary adds after a decode's mean objective: ", optimality ratio 0.9953"
// (mwm: the mean of the per-instance ratios, as validation reports it), ", gap 1.23% to the
// optimum" (tsp), ", ratio to the optimum 0.9712" or "... to the planted correspondence ..."
// (gm: the ratio of the means), then the task's other measures (gm: ", recovery 0.62"). A metric
// whose optimum is 1 on every instance (sort's Kendall tau) is its own ratio: it adds nothing.
func (s *fileScore) of(sols []envs.Solution) string {
	if s.ref == nil {
		return ""
	}
	ev := eval.ScoreSolutions(s.env, s.insts, sols, s.ref)
	var b strings.Builder
	switch metric := envs.MustFacts(s.env.Task()).Metric; {
	case metric.PerOptimum:
		fmt.Fprintf(&b, ", %s %.4f", metric.Label, ev.Metric)
	case ev.Gap != nil:
		fmt.Fprintf(&b, ", gap %.2f%% to the optimum", 100**ev.Gap)
	case !metric.UnitOptimum:
		fmt.Fprintf(&b, ", ratio to the %s %.4f", s.refName(), meanObjective(sols)/meanObjective(s.ref.Best))
	}
	names := make([]string, 0, len(ev.Also))
	for name := range ev.Also {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(&b, ", %s %.4f", name, ev.Also[name])
	}
	return b.String()
}

// refName is what the reference is: "optimum" or "planted correspondence".
func (s *fileScore) refName() string {
	if s.ref.Exact {
		return "optimum"
	}
	return "planted correspondence"
}

// summary is the summary's last clause, the reference itself: "; the optimum (hungarian): mean
// objective 5.25 (3µs per instance)", "" without one.
func (s *fileScore) summary() string {
	if s.ref == nil {
		return ""
	}
	name := s.refName()
	if s.ref.Exact {
		name += " (" + s.ref.BestSolver[0] + ")"
	}
	return fmt.Sprintf("; the %s: mean objective %.6g (%s per instance)", name,
		meanObjective(s.ref.Best), (s.took / time.Duration(len(s.insts))).Round(time.Microsecond))
}

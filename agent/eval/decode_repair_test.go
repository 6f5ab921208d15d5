package eval

import (
	"cmp"
	"slices"
	"testing"

	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

// The tour repairs of an (untrained) SPG+Successor policy: every repaired decode, single and
// sampled, is a tour no longer than the unrepaired decode of the same instance and the same for
// the same seed; the single decode repaired by 2opt-scores is tsp.TwoOptNear of the unrepaired
// tour on the lists built here from the actor's log M, and by 2opt or 2opt-oropt it is 2-opt
// optimal. Some instances must gain, or the test checks nothing.
func TestTourRepairs(t *testing.T) {
	const n = 30
	pol, env, insts := samplingPolicy(t, envs.TaskTSP, n, run.RecipeBest)
	insts = insts[:10]
	sampled := run.Decoding{Samples: 4, GumbelScale: SuccessorGumbelScale, Noise: run.NoiseRelative, Augment: true, Seed: 3}
	for _, base := range []run.Decoding{SingleDecode, sampled} {
		plain, err := pol.SolveWith(env, insts, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, repair := range []string{run.Repair2Opt, run.Repair2OptScores, run.RepairLocalSearch} {
			dec := base
			dec.Repair = repair
			got, err := pol.SolveWith(env, insts, dec)
			if err != nil {
				t.Fatalf("%s: %v", repair, err)
			}
			again, err := pol.SolveWith(env, insts, dec)
			if err != nil {
				t.Fatal(err)
			}
			gained := 0
			for i, s := range got {
				if s.Objective < plain[i].Objective-1e-9 {
					gained++
				}
				d := make([]float64, n*n)
				envs.DistanceMatrix(d, insts[i].Points, insts[i].Points)
				switch {
				case !slices.Equal(slices.Sorted(slices.Values(s.Perm)), slices.Sorted(slices.Values(plain[i].Perm))):
					t.Fatalf("%s (%s) instance %d: %v is not a tour", repair, base, i, s.Perm)
				case !slices.Equal(s.Perm, again[i].Perm):
					t.Fatalf("%s (%s) instance %d: %v then %v", repair, base, i, s.Perm, again[i].Perm)
				case s.Objective > plain[i].Objective+1e-9:
					t.Fatalf("%s (%s) instance %d: repaired %v longer than %v", repair, base, i, s.Objective, plain[i].Objective)
				case !base.Single():
				case repair == run.Repair2OptScores:
					want := slices.Clone(plain[i].Perm)
					k := run.RepairScoreCandidates
					tsp.TwoOptNear(d, n, scoreLists(t, pol, insts[i], n, k), k, want, make([]int, n))
					if !slices.Equal(s.Perm, want) {
						t.Fatalf("2opt-scores instance %d: %v, TwoOptNear on the policy's lists %v", i, s.Perm, want)
					}
				default:
					checkNoReversalGains(t, d, n, s.Perm)
				}
			}
			if gained == 0 {
				t.Errorf("%s (%s): no instance gained, so nothing was checked", repair, base)
			}
		}
	}
}

// scoreLists is each city's k others of highest log M_ij + log M_ji under the policy's actor,
// ties to the lower index, found by a full sort per city.
func scoreLists(t *testing.T, pol *Policy, inst envs.Instance, n, k int) []int {
	t.Helper()
	h := learn.HyperAt(&pol.cfg, 0)
	states := make([]float32, pol.cfg.Facts.StateLen(n))
	pol.cfg.Facts.Featurize(inst, states)
	x, m := make([]float32, n*n), make([]float32, n*n)
	if err := pol.learner.(Scorer).Scores(states, 1, h, x, m); err != nil {
		t.Fatal(err)
	}
	l := make([]float64, n*n)
	sinkhorn.LogM(l, x, n, h.Tau, h.SinkhornIters)
	var near []int
	for i := range n {
		type cand struct {
			j     int
			score float64
		}
		var cs []cand
		for j := range n {
			if j != i {
				cs = append(cs, cand{j, l[i*n+j] + l[j*n+i]})
			}
		}
		slices.SortFunc(cs, func(a, b cand) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmp.Compare(a.j, b.j)
		})
		for _, c := range cs[:k] {
			near = append(near, c.j)
		}
	}
	return near
}

// checkNoReversalGains fails t if reversing some stretch of tour shortens it by more than 1e-9.
func checkNoReversalGains(t *testing.T, d []float64, n int, tour []int) {
	t.Helper()
	base := tsp.TourCost(d, n, tour)
	for i := range n {
		for j := i + 2; j < n; j++ {
			moved := slices.Clone(tour)
			slices.Reverse(moved[i+1 : j+1])
			if got := tsp.TourCost(d, n, moved); got < base-1e-9 {
				t.Fatalf("reversing positions %d..%d of %v shortens it %v -> %v", i+1, j, tour, base, got)
			}
		}
	}
}

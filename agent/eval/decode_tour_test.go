package eval

import (
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

// The tour decodes of an (untrained) SPG+Successor policy: patch-scores at weight 0 is the
// environment's patching, single and sampled; greedy's single decode is tsp.GreedyEdges of the
// actor's log M; every decode gives a tour of every instance and the same tours for the same seed.
func TestTourDecodes(t *testing.T) {
	const n = 8
	pol, env, insts := samplingPolicy(t, envs.TaskTSP, n, run.RecipeBest)
	sampled := run.Decoding{Samples: 4, GumbelScale: SuccessorGumbelScale, Noise: run.NoiseRelative, Augment: true, Seed: 3}
	for _, base := range []run.Decoding{SingleDecode, sampled} {
		old, err := pol.SolveWith(env, insts, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			tour   string
			weight float64
		}{{run.DecodePatchScores, 0}, {run.DecodePatchScores, 0.5}, {run.DecodeGreedy, 0}} {
			dec := base
			dec.Tour, dec.PatchWeight = c.tour, c.weight
			got, err := pol.SolveWith(env, insts, dec)
			if err != nil {
				t.Fatalf("%s %g: %v", c.tour, c.weight, err)
			}
			again, err := pol.SolveWith(env, insts, dec)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range got {
				if !slices.Equal(slices.Sorted(slices.Values(s.Perm)), []int{0, 1, 2, 3, 4, 5, 6, 7}) {
					t.Fatalf("%s %g (%s) instance %d: %v is not a tour", c.tour, c.weight, base, i, s.Perm)
				}
				if !slices.Equal(s.Perm, again[i].Perm) {
					t.Fatalf("%s %g (%s) instance %d: %v then %v", c.tour, c.weight, base, i, s.Perm, again[i].Perm)
				}
				if c.weight == 0 && c.tour == run.DecodePatchScores && !slices.Equal(s.Perm, old[i].Perm) {
					t.Fatalf("patch-scores at weight 0 (%s) instance %d: %v, patch %v", base, i, s.Perm, old[i].Perm)
				}
			}
			if c.tour != run.DecodeGreedy || !base.Single() {
				continue
			}
			h := learn.HyperAt(&pol.cfg, 0)
			sl := pol.cfg.Facts.StateLen(n)
			x, m := make([]float32, n*n), make([]float32, n*n)
			for i, inst := range insts {
				states := make([]float32, sl)
				pol.cfg.Facts.Featurize(inst, states)
				if err := pol.learner.(Scorer).Scores(states, 1, h, x, m); err != nil {
					t.Fatal(err)
				}
				l, want := make([]float64, n*n), make([]int, n)
				sinkhorn.LogM(l, x, n, h.Tau, h.SinkhornIters)
				tsp.GreedyEdges(l, n, want)
				if !slices.Equal(got[i].Perm, want) {
					t.Fatalf("greedy instance %d: %v, GreedyEdges of log M %v", i, got[i].Perm, want)
				}
			}
		}
	}
}

// A tour decode or repair named, patch and none included, is refused in one line by a model
// without a successor action; none named ("") decodes. An explicit patch used to be accepted.
func TestTourDecodeAndRepairNeedASuccessorAction(t *testing.T) {
	pol, env, insts := samplingPolicy(t, envs.TaskTSP, 6, run.RecipePaper)
	for _, c := range []struct{ tour, repair, want string }{
		{run.DecodeGreedy, "", "tour-decode greedy"},
		{run.DecodePatch, "", "tour-decode patch"},
		{"", run.Repair2Opt, "tour-repair 2opt"},
		{"", run.RepairNone, "tour-repair none"},
	} {
		dec := SingleDecode
		dec.Tour, dec.Repair = c.tour, c.repair
		if _, err := pol.SolveWith(env, insts, dec); err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q, %q on %s: error %v, want one line naming %s", c.tour, c.repair, pol.cfg.Entry.Title, err, c.want)
		}
	}
	if _, err := pol.SolveWith(env, insts, SingleDecode); err != nil {
		t.Errorf("no tour decode named on %s: %v", pol.cfg.Entry.Title, err)
	}
}

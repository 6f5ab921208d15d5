package eval

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestOptimalTourGapIsZero is issue 33's fifth: an optimal TSP policy's gap of 0 was dropped
// from its record (gap,omitempty), reading like "no optimum known", and at TSP-3 optimal tours
// other than the reference's (here reversed and rotated) printed as "-0.00%".
func TestOptimalTourGapIsZero(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		env, _ := envs.New(envs.TaskTSP, n)
		ds := envs.Dataset{Env: env, Seed: 3, Size: 40}
		set := NewSet(envs.Test, ds, envs.MustFacts(ds.Env.Task()))
		ref, err := computeReference(env, ds.Seed, set.Insts, false, new(atomic.Bool), new(atomic.Int64))
		if err != nil {
			t.Fatal(err)
		}
		set.Ref = ref
		perms := make([]int, 0, ds.Size*n)
		for i, s := range ref.Best {
			p := slices.Clone(s.Perm)
			slices.Reverse(p)
			r := i % n
			perms = append(perms, append(p[r:], p[:r]...)...)
		}
		ev := score(env, set, perms)
		if ev.Gap == nil || *ev.Gap != 0 {
			t.Errorf("tsp-%d: gap %v, want 0", n, ev.Gap)
		}
		data, _ := json.Marshal(ev)
		if !strings.Contains(string(data), `"gap":0,`) && !strings.Contains(string(data), `"gap":0}`) {
			t.Errorf("tsp-%d: the record drops the gap: %s", n, data)
		}
		line := run.ProgressLine(run.Record{Kind: run.KindEval, Eval: ev}, run.Config{})
		if !strings.Contains(line, ", gap 0.00%") {
			t.Errorf("tsp-%d: %s", n, line)
		}
	}
}

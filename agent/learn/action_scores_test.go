package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/tsp/tsptest"
)

// PatchByScores at weight 0 is ToPerm's patching; at any weight it returns a tour and leaves the
// cover as it was.
func TestPatchByScoresIsATour(t *testing.T) {
	const n = 11
	env, err := envs.New(envs.TaskTSP, n)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(37, 38))
	h := Hyper{Successor: true}
	var dec ActionDecoder
	for trial := range 60 {
		inst := env.Generate(uint64(trial), 0)
		dec.SetInstance(h, inst)
		cover := rng.Perm(n)
		logM := make([]float64, n*n)
		for k := range logM {
			logM[k] = -3 * rng.Float64()
		}
		want := make([]int, n)
		dec.ToPerm(h, cover, want)
		for _, w := range []float64{0, 0.1, 10} {
			old := slices.Clone(cover)
			perm := make([]int, n)
			dec.PatchByScores(cover, logM, w, perm)
			if !slices.Equal(cover, old) {
				t.Fatalf("trial %d weight %g: the cover %v was changed to %v", trial, w, old, cover)
			}
			if !slices.Equal(slices.Sorted(slices.Values(perm)), slices.Sorted(slices.Values(old))) {
				t.Fatalf("trial %d weight %g: %v is not a tour", trial, w, perm)
			}
			if w == 0 && !slices.Equal(perm, want) {
				t.Fatalf("trial %d: weight 0 gave %v, ToPerm %v", trial, perm, want)
			}
		}
	}
}

// A case worked by hand: the unit square's corners 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1) and the
// cover of two 2-cycles 0-1 and 2-3. By distance the merge that adds 0-3 and 1-2 costs 0 and the
// one adding the diagonals 0-2 and 1-3 costs 2 sqrt 2 - 2, so patching makes the square. With
// log M 0 on the diagonals, -10 on 0-3 and 1-2 and -1 on the cover, weight 1 makes the square
// the square's merge cost 18 and the diagonals' 2 sqrt 2 - 4: it takes the diagonals.
func TestPatchByScoresByHand(t *testing.T) {
	const n = 4
	inst := envs.Instance{Points: []envs.Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}}
	h := Hyper{Successor: true}
	var dec ActionDecoder
	dec.SetInstance(h, inst)
	logM := make([]float64, n*n)
	set := func(i, j int, v float64) { logM[i*n+j], logM[j*n+i] = v, v }
	for i := range n {
		logM[i*n+i] = -1e4
	}
	set(0, 1, -1)
	set(2, 3, -1)
	set(0, 3, -10)
	set(1, 2, -10)
	set(0, 2, 0)
	set(1, 3, 0)
	cover := []int{1, 0, 3, 2}
	for _, c := range []struct {
		weight float64
		want   [][2]int
	}{{0, [][2]int{{0, 1}, {0, 3}, {1, 2}, {2, 3}}}, {1, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}}}} {
		perm := make([]int, n)
		dec.PatchByScores(cover, logM, c.weight, perm)
		if got := tsptest.Edges(perm); !slices.Equal(got, c.want) {
			t.Errorf("weight %g: tour %v has edges %v, want %v", c.weight, perm, got, c.want)
		}
	}
}

package mwm

import (
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
)

// naiveGreedy repeatedly takes the heaviest edge between free ends, scanning all edges
// (ties to the lower row, then the lower column).
func naiveGreedy(w []float64, n int) []int {
	rowToCol := make([]int, n)
	colUsed := make([]bool, n)
	for i := range rowToCol {
		rowToCol[i] = -1
	}
	for range n {
		bi, bj := -1, -1
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if rowToCol[i] < 0 && !colUsed[j] && (bi < 0 || w[i*n+j] > w[bi*n+bj]) {
					bi, bj = i, j
				}
			}
		}
		rowToCol[bi], colUsed[bj] = bj, true
	}
	return rowToCol
}

func TestGreedyAssignment(t *testing.T) {
	rng := envstest.RNG(23)
	for _, set := range envstest.PointSets[envs.Point]() {
		for _, n := range []int{1, 2, 3, 7, 15} {
			a, b := set.Gen(rng, n), set.Gen(rng, n)
			w := make([]float64, n*n)
			envs.DistanceMatrix(w, a, b)
			got := make([]int, n)
			total := GreedyAssignment(w, n, got)
			envstest.MustPerm(t, got, n, "GreedyAssignment")
			want := naiveGreedy(w, n)
			var sum float64
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s n=%d: assignment %v, reference %v", set.Name, n, got, want)
				}
				sum += w[i*n+got[i]]
			}
			if !envstest.Near(total, sum) {
				t.Errorf("%s n=%d: reported weight %v, assignment weighs %v", set.Name, n, total, sum)
			}
		}
	}
}

package perm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, p := range [][]int{nil, {0}, {1, 0}, {2, 0, 1}, rand.New(rand.NewPCG(1, 1)).Perm(300)} {
		if err := Validate(p); err != nil {
			t.Errorf("Validate(%v) = %v", p, err)
		}
	}
	for _, tc := range []struct {
		p    []int
		want string
	}{
		{[]int{1}, "p[0] = 1"},
		{[]int{0, -1}, "p[1] = -1"},
		{[]int{0, 2, 0}, "p[2] = 0"},
		{[]int{1, 1}, "p[1] = 1"},
		{append(rand.New(rand.NewPCG(1, 2)).Perm(299), 17), "p[299] = 17"},
	} {
		err := Validate(tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%v) = %v, want an error naming %q", tc.p, err, tc.want)
		}
	}
}

func TestRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for n := 0; n <= 9; n++ {
		p, q := rng.Perm(n), rng.Perm(n)
		id := make([]int, n)
		Identity(id)
		for i := range id {
			if id[i] != i {
				t.Fatalf("Identity: %v", id)
			}
		}
		inv := make([]int, n)
		Invert(inv, p)
		pq, back := make([]int, n), make([]int, n)
		Compose(back, p, inv)
		if !slices.Equal(back, id) {
			t.Fatalf("p∘p⁻¹ = %v", back)
		}
		Compose(back, inv, p)
		if !slices.Equal(back, id) {
			t.Fatalf("p⁻¹∘p = %v", back)
		}
		// Compose agrees with applying q and then p to a vector.
		Compose(pq, p, q)
		src := make([]string, n)
		for i := range src {
			src[i] = string(rune('a' + i))
		}
		viaCompose, viaP, viaQP := make([]string, n), make([]string, n), make([]string, n)
		Apply(viaCompose, src, pq)
		Apply(viaP, src, p)
		Apply(viaQP, viaP, q)
		if !slices.Equal(viaCompose, viaQP) {
			t.Fatalf("Apply(p∘q) = %v, Apply(q, Apply(p)) = %v", viaCompose, viaQP)
		}
		for i := range n {
			if viaP[i] != src[p[i]] {
				t.Fatalf("Apply: %v from %v by %v", viaP, src, p)
			}
		}
		if err := Validate(pq); err != nil {
			t.Fatal(err)
		}
		m := make([]float32, n*n)
		ToMatrix(m, p)
		for i := range n {
			for j := range n {
				want := float32(0)
				if p[i] == j {
					want = 1
				}
				if m[i*n+j] != want {
					t.Fatalf("ToMatrix(%v)[%d][%d] = %v", p, i, j, m[i*n+j])
				}
			}
		}
		got := make([]int, n)
		if err := FromMatrix(m, n, got); err != nil || !slices.Equal(got, p) {
			t.Fatalf("FromMatrix(ToMatrix(%v)) = %v, %v", p, got, err)
		}
	}
}

func TestFromMatrixRejects(t *testing.T) {
	for _, tc := range []struct {
		m    []float64
		want string
	}{
		{[]float64{1, 0, 0, 0}, "row 1 has no 1"},
		{[]float64{1, 1, 0, 1}, "row 0 has more than one 1"},
		{[]float64{1, 0, 1, 0}, "column"},
		{[]float64{1, 0, 0, 0.5}, "(1, 1)"},
	} {
		err := FromMatrix(tc.m, 2, make([]int, 2))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromMatrix(%v) = %v, want an error containing %q", tc.m, err, tc.want)
		}
	}
}

func TestDrawRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, tc := range []struct{ n, k int }{{1, 0}, {1, 1}, {2, 2}, {5, 3}, {50, 2}, {50, 7}, {9, 9}} {
		rows := make([]int, tc.k)
		for range 200 {
			DrawRows(rng, tc.n, tc.k, rows)
			seen := map[int]bool{}
			for _, r := range rows {
				if r < 0 || r >= tc.n || seen[r] {
					t.Fatalf("n=%d k=%d: rows %v not distinct in range", tc.n, tc.k, rows)
				}
				seen[r] = true
			}
		}
	}
	// Uniformity of ordered tuples: n=5, k=2 has 20 equally likely outcomes. With 20000 draws
	// each count is about 1000 ± 31; the chi-square statistic (19 dof, mean 19) is far below
	// 60 unless the sampler is biased, e.g. in the order of the rows.
	const n, k, draws = 5, 2, 20000
	var counts [n][n]int
	rows := make([]int, k)
	for range draws {
		DrawRows(rng, n, k, rows)
		counts[rows[0]][rows[1]]++
	}
	chi2 := 0.0
	exp := float64(draws) / (n * (n - 1))
	for a := range n {
		for b := range n {
			if a != b {
				d := float64(counts[a][b]) - exp
				chi2 += d * d / exp
			}
		}
	}
	if chi2 > 60 {
		t.Errorf("DrawRows not uniform: chi-square %v over 19 dof, counts %v", chi2, counts)
	}
	four := make([]int, 4)
	if a := testing.AllocsPerRun(100, func() { DrawRows(rng, 100, 4, four) }); a != 0 {
		t.Errorf("DrawRows allocates %v", a)
	}
}

func TestDrawRowsPanics(t *testing.T) {
	for _, k := range []int{-1, 4} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("DrawRows(n=3, k=%d) did not panic", k)
				}
			}()
			DrawRows(rand.New(rand.NewPCG(1, 1)), 3, k, make([]int, 5))
		}()
	}
}

func TestCycleRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	const n, width = 9, 4
	for k := 0; k <= n; k++ {
		rows := make([]int, k)
		DrawRows(rng, n, k, rows)
		// Matrix: row r holds r*10+c, so the origin of every block is recognisable.
		m := make([]int, n*width)
		for r := range n {
			for c := range width {
				m[r*width+c] = r*10 + c
			}
		}
		CycleRows(m, width, rows)
		// Expected destination of every row, from the definition.
		from := make([]int, n)
		Identity(from)
		for i := range k {
			from[rows[(i+1)%k]] = rows[i]
		}
		moved := 0
		for r := range n {
			for c := range width {
				if m[r*width+c] != from[r]*10+c {
					t.Fatalf("k=%d rows=%v: entry (%d,%d) = %d, want %d", k, rows, r, c, m[r*width+c], from[r]*10+c)
				}
			}
			if from[r] != r {
				moved++
			}
		}
		if k >= 2 && moved != k {
			t.Fatalf("k=%d: %d rows moved", k, moved)
		}
		// A permutation vector, width 1, cycles the same way and stays a permutation.
		p := make([]int, n)
		Identity(p)
		CycleRows(p, 1, rows)
		if !slices.Equal(p, from) {
			t.Fatalf("k=%d rows=%v: vector %v, want %v", k, rows, p, from)
		}
	}
	// k = 2 swaps.
	p := []int{0, 1, 2, 3}
	CycleRows(p, 1, []int{3, 1})
	if !slices.Equal(p, []int{0, 3, 2, 1}) {
		t.Fatalf("swap: %v", p)
	}
}

// Each visits n! permutations, every one valid and none twice.
func TestEach(t *testing.T) {
	fact := 1
	for n := 0; n <= 6; n++ {
		if n > 0 {
			fact *= n
		}
		seen := map[string]bool{}
		Each(n, func(p []int) {
			if err := Validate(p); err != nil || len(p) != n {
				t.Fatalf("n %d: %v is not a permutation of %d: %v", n, p, n, err)
			}
			seen[fmt.Sprint(p)] = true
		})
		if len(seen) != fact {
			t.Errorf("n %d: %d distinct permutations, want %d", n, len(seen), fact)
		}
	}
}

package gm

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"spg-tui/linalg/assign"
)

// ExactMaxN is the largest number of nodes Exact accepts: the N up to which its branch
// and bound stays under a second per instance with noise up to 0.10, the task's range.
// Measured worst of 8 instances on a shared 2-core AMD EPYC: at N = 11, 0.32 s (ER p = 0.5,
// noise 0.10) and 0.22 s (6-regular, noise 0.10); at N = 12, 0.41 s and 1.26 s. Pruning is
// weakest when the optimum is far below |E1|: pure noise (ER p = 0.5, noise 0.5) takes up to
// 1.7 s at N = 11.
const ExactMaxN = 11

// Objective is the quadratic-assignment objective of the correspondence perm (perm[i] =
// the node of G2 matched to node i of G1): the fraction of G1's edges {i, j} whose images
// {perm[i], perm[j]} are edges of G2, in [0, 1]. A G1 without edges has nothing to lose, so
// its objective is 1 for every perm. It does not allocate.
func Objective(g1, g2 [][]int8, perm []int) float64 {
	m := Edges(g1)
	if m == 0 {
		return 1
	}
	return float64(Preserved(g1, g2, perm)) / float64(m)
}

// Recovery is the fraction of nodes that perm maps to their planted partner.
func Recovery(perm, planted []int) float64 {
	hit := 0
	for i, j := range perm {
		if j == planted[i] {
			hit++
		}
	}
	return float64(hit) / float64(len(perm))
}

// Preserved counts G1's edges that perm maps onto edges of G2.
func Preserved(g1, g2 [][]int8, perm []int) int {
	c := 0
	for i, row := range g1 {
		r2 := g2[perm[i]]
		for j := i + 1; j < len(row); j++ {
			if row[j] == 1 {
				c += int(r2[perm[j]])
			}
		}
	}
	return c
}

// gmSwapDelta is the change in Preserved when perm[a] and perm[b] are exchanged, in O(N):
// only pairs with one end in {a, b} change, and the pair {a, b} itself keeps its image.
func gmSwapDelta(g1, g2 [][]int8, perm []int, a, b int) int {
	ra, rb := g1[a], g1[b]
	sa, sb := g2[perm[a]], g2[perm[b]]
	d := 0
	for k, pk := range perm {
		if k == a || k == b {
			continue
		}
		d += int(ra[k]-rb[k]) * int(sb[pk]-sa[pk])
	}
	return d
}

// LocalSearch improves a copy of start by best-improvement 2-swaps (exchanging the G2
// partners of two G1 nodes) until no swap preserves more edges, and returns it. Each swap is
// scored in O(N), a pass over all pairs in O(N^3); the objective never decreases.
func LocalSearch(g1, g2 [][]int8, start []int) []int {
	p := slices.Clone(start)
	n := len(p)
	for {
		best, ba, bb := 0, -1, -1
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if d := gmSwapDelta(g1, g2, p, a, b); d > best {
					best, ba, bb = d, a, b
				}
			}
		}
		if ba < 0 {
			return p
		}
		p[ba], p[bb] = p[bb], p[ba]
	}
}

// Spectral is Umeyama's (1988) spectral matching: with A1 = U1 D1 U1^T and A2 = U2 D2 U2^T
// (eigenvalues in ascending order), it returns the permutation maximising
// sum_i S[i][perm[i]] for S = |U1| |U2|^T, solved exactly as a linear assignment. The
// absolute values make S blind to the arbitrary signs of the eigenvectors.
func Spectral(g1, g2 [][]int8) ([]int, error) {
	n := len(g1)
	u1, err := absEigenvectors(g1)
	if err != nil {
		return nil, fmt.Errorf("gm: spectral matching: g1: %w", err)
	}
	u2, err := absEigenvectors(g2)
	if err != nil {
		return nil, fmt.Errorf("gm: spectral matching: g2: %w", err)
	}
	s := mat.NewDense(n, n, nil)
	s.Mul(u1, u2.T())
	perm := make([]int, n)
	var solver assign.Solver
	if _, err := solver.Maximize(s.RawMatrix().Data, n, perm); err != nil {
		return nil, fmt.Errorf("gm: spectral matching: %w", err)
	}
	return perm, nil
}

// absEigenvectors returns the entrywise absolute values of the eigenvectors (columns) of the
// symmetric matrix a.
func absEigenvectors(a [][]int8) (*mat.Dense, error) {
	n := len(a)
	sym := mat.NewSymDense(n, nil)
	for i, row := range a {
		for j, x := range row {
			sym.SetSym(i, j, float64(x))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, errors.New("eigendecomposition did not converge")
	}
	var u mat.Dense
	es.VectorsTo(&u)
	raw := u.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j := range row {
			row[j] = math.Abs(row[j])
		}
	}
	return &u, nil
}

// Exact returns a correspondence preserving the most edges, by branch and bound. It
// refuses graphs of more than ExactMaxN nodes.
func Exact(g1, g2 [][]int8) ([]int, error) {
	n := len(g1)
	if n > ExactMaxN {
		return nil, fmt.Errorf("gm: exact solver handles n <= %d, got n = %d", ExactMaxN, n)
	}
	start, err := Spectral(g1, g2)
	if err != nil {
		return nil, err
	}
	b := newGMBranch(g1, g2, LocalSearch(g1, g2, start))
	b.search(0)
	return b.bestPerm, nil
}

// gmBranch is the state of Exact's depth-first search. G1's nodes are assigned in a fixed
// order, each to a free G2 node. The bound on what a partial assignment can still reach is
//
//	cur + sum over unassigned u of max over free v of gain[u][v] + min(e1, e2),
//
// where gain[u][v] counts the edges from u to assigned nodes that u -> v would preserve, and
// e1, e2 count the edges among G1's unassigned and G2's free nodes: every unassigned u goes
// to some free v, and an edge between two unassigned nodes needs an edge between free ones.
type gmBranch struct {
	g1, g2   [][]int8
	n        int
	order    []int     // G1's nodes in assignment order
	perm     []int     // perm[u] = G2 node of assigned u, -1 otherwise
	used     []bool    // used[v]: G2 node v is taken
	gain     [][]int32 // gain[u][v], kept up to date as nodes are assigned and released
	cur      int       // edges preserved among assigned nodes
	e1, e2   int       // edges among unassigned G1 nodes, among free G2 nodes
	edges    int       // |E1|: no correspondence preserves more
	best     int
	bestPerm []int
	cand     [][]int // per depth, the free G2 nodes in the order they are tried
}

// newGMBranch sets up the search with incumbent as the best correspondence so far.
func newGMBranch(g1, g2 [][]int8, incumbent []int) *gmBranch {
	n := len(g1)
	b := &gmBranch{
		g1: g1, g2: g2, n: n,
		perm: make([]int, n), used: make([]bool, n),
		e1: Edges(g1), e2: Edges(g2), edges: Edges(g1),
		best: Preserved(g1, g2, incumbent), bestPerm: incumbent,
		cand: make([][]int, n),
	}
	b.gain = make([][]int32, n)
	for i := range b.gain {
		b.gain[i] = make([]int32, n)
		b.perm[i] = -1
		b.cand[i] = make([]int, 0, n)
	}
	b.order = gmOrder(g1)
	return b
}

// gmOrder orders G1's nodes so that each one has as many edges as possible to those before
// it (ties to the higher degree, then the lower index), so that gains and bounds bite early.
func gmOrder(g1 [][]int8) []int {
	n := len(g1)
	deg := make([]int, n)
	for i, row := range g1 {
		for _, x := range row {
			deg[i] += int(x)
		}
	}
	links := make([]int, n)
	placed := make([]bool, n)
	order := make([]int, 0, n)
	for len(order) < n {
		u := -1
		for v := 0; v < n; v++ {
			if placed[v] {
				continue
			}
			if u < 0 || links[v] > links[u] || links[v] == links[u] && deg[v] > deg[u] {
				u = v
			}
		}
		placed[u] = true
		order = append(order, u)
		for v, x := range g1[u] {
			links[v] += int(x)
		}
	}
	return order
}

// bound is the most edges any completion of the current partial assignment preserves.
func (b *gmBranch) bound() int {
	s := b.cur + min(b.e1, b.e2)
	for u := 0; u < b.n; u++ {
		if b.perm[u] >= 0 {
			continue
		}
		m := int32(0)
		for v, g := range b.gain[u] {
			if !b.used[v] && g > m {
				m = g
			}
		}
		s += int(m)
	}
	return s
}

// search extends the assignment of order[:depth] in every way that may beat the incumbent.
func (b *gmBranch) search(depth int) {
	if b.best == b.edges {
		return
	}
	if depth == b.n {
		if b.cur > b.best {
			b.best = b.cur
			copy(b.bestPerm, b.perm)
		}
		return
	}
	if b.bound() <= b.best {
		return
	}
	u := b.order[depth]
	cand := b.cand[depth][:0]
	for v := 0; v < b.n; v++ {
		if !b.used[v] {
			cand = append(cand, v)
		}
	}
	gu := b.gain[u]
	slices.SortStableFunc(cand, func(x, y int) int { return int(gu[y] - gu[x]) })
	for _, v := range cand {
		b.assign(u, v, 1)
		b.search(depth + 1)
		b.assign(u, v, -1)
	}
}

// assign maps u to v (sign 1) or undoes that (sign -1), updating cur, e1, e2 and the gains of
// the other unassigned G1 nodes towards the other free G2 nodes.
func (b *gmBranch) assign(u, v int, sign int32) {
	if sign < 0 {
		b.perm[u], b.used[v] = -1, false
	}
	r1, r2 := b.g1[u], b.g2[v]
	d1, d2 := 0, 0
	for w, x := range r1 {
		if x == 0 || w == u || b.perm[w] >= 0 {
			continue
		}
		d1++
		gw := b.gain[w]
		for y, z := range r2 {
			if z == 1 && !b.used[y] && y != v {
				gw[y] += sign
			}
		}
	}
	for y, z := range r2 {
		if z == 1 && y != v && !b.used[y] {
			d2++
		}
	}
	if sign > 0 {
		b.cur += int(b.gain[u][v])
		b.e1 -= d1
		b.e2 -= d2
		b.perm[u], b.used[v] = v, true
	} else {
		b.cur -= int(b.gain[u][v])
		b.e1 += d1
		b.e2 += d2
	}
}

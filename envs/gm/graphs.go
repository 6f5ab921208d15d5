package gm

import (
	"fmt"
	"math/rand/v2"
)

// Graph names the random graph family that G1 of a graph-matching instance is drawn from.
type Graph int

// The graph families of graph matching.
const (
	// ErdosRenyi joins each pair of nodes independently with probability P.
	ErdosRenyi Graph = iota
	// Regular is a random graph in which every node has degree D.
	Regular
)

// String returns the family's name: "er" or "regular".
func (g Graph) String() string {
	switch g {
	case ErdosRenyi:
		return "er"
	case Regular:
		return "regular"
	}
	return fmt.Sprintf("Graph(%d)", int(g))
}

// Noise names how G2's edges are drawn from G1's.
type Noise int

// The noise models of graph matching.
const (
	// Flip flips each node pair (edge <-> non-edge) with probability Noise: the data of runs
	// and files whose spec names no noise model. At density p it adds (1-p)/p times as many
	// edges as it removes.
	Flip Noise = iota
	// Nowak is Nowak, Villar, Bandeira and Bruna's (2018) model: each edge of G1 is removed
	// with probability Noise and each non-edge added with probability Noise p/(1-p), p the
	// family's edge density (P, or D/(N-1)), so that G2's expected degree is G1's.
	Nowak
)

// String returns the noise model's name in a data spec: "flip" or "nowak".
func (m Noise) String() string {
	switch m {
	case Flip:
		return "flip"
	case Nowak:
		return "nowak"
	}
	return fmt.Sprintf("Noise(%d)", int(m))
}

// Params says how a graph-matching instance is drawn: G1 on N nodes from Graph (with edge
// probability P for ErdosRenyi, degree D for Regular), and G2 a uniformly random
// relabelling of G1 with noise Noise applied as Model says.
type Params struct {
	N     int
	Graph Graph
	P     float64
	D     int
	Noise float64
	Model Noise
}

// density is the expected edge density of G1: P, or D/(N-1) for regular graphs.
func (p Params) density() float64 {
	if p.Graph == Regular {
		return float64(p.D) / float64(p.N-1)
	}
	return p.P
}

// addProbability is the probability that noise makes a non-edge of G1 an edge of G2: Noise
// under Flip, Noise p/(1-p) under Nowak (0 when G1 is complete and has no non-edges).
func (p Params) addProbability() float64 {
	if p.Model == Flip {
		return p.Noise
	}
	d := p.density()
	if d >= 1 {
		return 0
	}
	return p.Noise * d / (1 - d)
}

// Validate returns a one-line error naming the first invalid field of p.
func (p Params) Validate() error {
	if p.N < 2 {
		return fmt.Errorf("gm: n = %d, need at least 2 nodes", p.N)
	}
	if !(p.Noise >= 0 && p.Noise <= 1) {
		return fmt.Errorf("gm: noise = %v, need 0 <= noise <= 1", p.Noise)
	}
	switch p.Graph {
	case ErdosRenyi:
		if !(p.P >= 0 && p.P <= 1) {
			return fmt.Errorf("gm: edge probability p = %v, need 0 <= p <= 1", p.P)
		}
	case Regular:
		if p.D < 0 || p.D >= p.N {
			return fmt.Errorf("gm: degree d = %d, need 0 <= d < n = %d", p.D, p.N)
		}
		if p.N*p.D%2 != 0 {
			return fmt.Errorf("gm: degree d = %d on n = %d nodes, need n*d even", p.D, p.N)
		}
	default:
		return fmt.Errorf("gm: unknown graph family %v", p.Graph)
	}
	switch p.Model {
	case Flip:
	case Nowak:
		if q := p.addProbability(); q > 1 {
			return fmt.Errorf("gm: noise = %v at edge density %.4g would add non-edges with probability %.4g > 1 (nowak keeps the expected degree); need noise <= %.4g",
				p.Noise, p.density(), q, (1-p.density())/p.density())
		}
	default:
		return fmt.Errorf("gm: unknown noise model %v", p.Model)
	}
	return nil
}

// Generate draws one graph-matching instance from rng: the adjacency matrices g1 and g2
// (symmetric, 0/1, zero diagonal; int8 rows so that JSON writes them as arrays of numbers)
// and the planted correspondence, planted[i] = the node of G2 that node i of G1 became.
// The draws are, in order: G1, the relabelling, then one number per node pair in row order
// (none when Noise is 0). It panics if p is invalid.
func Generate(rng *rand.Rand, p Params) (g1, g2 [][]int8, planted []int) {
	if err := p.Validate(); err != nil {
		panic(err)
	}
	n := p.N
	if p.Graph == Regular {
		g1 = randomRegular(rng, n, p.D)
	} else {
		g1 = erdosRenyi(rng, n, p.P)
	}
	planted = rng.Perm(n)
	g2 = NewAdjacency(n)
	add := p.addProbability()
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			e := g1[i][j]
			if p.Noise > 0 {
				// One draw per pair under either model, so that noise 0.05 of flip and of
				// nowak differ only in which pairs change.
				change := p.Noise
				if e == 0 {
					change = add
				}
				if rng.Float64() < change {
					e ^= 1
				}
			}
			a, b := planted[i], planted[j]
			g2[a][b], g2[b][a] = e, e
		}
	}
	return g1, g2, planted
}

// NewAdjacency returns an n x n zero matrix (no edges) whose rows share one backing array.
func NewAdjacency(n int) [][]int8 {
	buf := make([]int8, n*n)
	a := make([][]int8, n)
	for i := range a {
		a[i] = buf[i*n : (i+1)*n]
	}
	return a
}

// erdosRenyi draws G(n, p): each pair i < j, in row order, is an edge with probability p.
func erdosRenyi(rng *rand.Rand, n int, p float64) [][]int8 {
	a := NewAdjacency(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				a[i][j], a[j][i] = 1, 1
			}
		}
	}
	return a
}

// regularSwapsPerEdge is how many double-edge swaps randomRegular attempts per edge. The
// swap chain mixes in O(|E| log |E|) steps in practice; 20 |E| is ample for the sizes here.
const regularSwapsPerEdge = 20

// randomRegular draws a random d-regular graph on n nodes (n*d even, d < n). It starts from
// the circulant graph joining i to i±1, ..., i±d/2 (and to i+n/2 when d is odd, so n is
// even) and randomises it with degree-preserving double-edge swaps, a Markov chain that is
// irreducible on simple graphs with a fixed degree sequence (Taylor 1981) and symmetric, so
// its limit is uniform. Unlike the pairing model with retries, whose success probability
// falls like exp(-(d^2-1)/4), it runs a fixed number of steps for every valid n and d.
func randomRegular(rng *rand.Rand, n, d int) [][]int8 {
	a := NewAdjacency(n)
	edges := make([][2]int, 0, n*d/2)
	join := func(i, j int) {
		a[i][j], a[j][i] = 1, 1
		edges = append(edges, [2]int{i, j})
	}
	for i := 0; i < n; i++ {
		for k := 1; k <= d/2; k++ {
			join(i, (i+k)%n)
		}
	}
	if d%2 == 1 {
		for i := 0; i < n/2; i++ {
			join(i, i+n/2)
		}
	}
	m := len(edges)
	if m < 2 {
		return a
	}
	for range regularSwapsPerEdge * m {
		e, f := rng.IntN(m), rng.IntN(m)
		u, v := edges[e][0], edges[e][1]
		x, y := edges[f][0], edges[f][1]
		if rng.IntN(2) == 1 {
			x, y = y, x
		}
		// Rewire u-v, x-y into u-y, x-v unless that makes a loop or a double edge.
		if u == y || x == v || u == x || v == y || a[u][y] == 1 || a[x][v] == 1 {
			continue
		}
		a[u][v], a[v][u], a[x][y], a[y][x] = 0, 0, 0, 0
		a[u][y], a[y][u], a[x][v], a[v][x] = 1, 1, 1, 1
		edges[e], edges[f] = [2]int{u, y}, [2]int{x, v}
	}
	return a
}

// CheckAdjacency returns a one-line error, naming the graph by name, unless a is an n x n
// symmetric 0/1 matrix with zero diagonal.
func CheckAdjacency(name string, a [][]int8, n int) error {
	if len(a) != n {
		return fmt.Errorf("%s has %d rows, want %d", name, len(a), n)
	}
	for i, row := range a {
		if len(row) != n {
			return fmt.Errorf("%s row %d has %d entries, want %d", name, i, len(row), n)
		}
		for j, x := range row {
			switch {
			case x != 0 && x != 1:
				return fmt.Errorf("%s[%d][%d] = %d, want 0 or 1", name, i, j, x)
			case i == j && x != 0:
				return fmt.Errorf("%s has a self-loop at node %d", name, i)
			case a[j][i] != x:
				return fmt.Errorf("%s is not symmetric: [%d][%d] = %d but [%d][%d] = %d", name, i, j, x, j, i, a[j][i])
			}
		}
	}
	return nil
}

// Edges is the number of edges of the symmetric adjacency matrix a.
func Edges(a [][]int8) int {
	m := 0
	for i, row := range a {
		for _, x := range row[i+1:] {
			m += int(x)
		}
	}
	return m
}

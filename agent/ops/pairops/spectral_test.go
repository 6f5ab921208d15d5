package pairops

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

// SpectralSimilarity of the 3-node path with itself, worked by hand: its eigenvectors by
// decreasing eigenvalue (sqrt 2, 0, -sqrt 2) are (1/2, 1/sqrt 2, 1/2), (1/sqrt 2, 0, -1/sqrt 2)
// and (1/2, -1/sqrt 2, 1/2), so the ends are alike (similarity 1) and an end and the middle
// 1/sqrt 2, rounded to the 2^-30 grid.
func TestSpectralSimilarityPath(t *testing.T) {
	path := []float64{0, 1, 0, 1, 0, 1, 0, 1, 0}
	x := tensor.New(tensor.WithShape(1, 6, 3), tensor.WithBacking(append(append([]float64(nil), path...), path...)))
	h := math.Round(spectralQuantum/math.Sqrt2) / spectralQuantum
	want := []float64{1, h, 1, h, 1, h, 1, h, 1}
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return SpectralSimilarity(p[0]) })
	bad := G.NewTensor(G.NewGraph(), tensor.Float64, 3, G.WithShape(2, 5, 3), G.WithName("bad"))
	if _, err := SpectralSimilarity(bad); err == nil {
		t.Error("SpectralSimilarity accepted a (B, 5, 3) state")
	}
}

// When G2 is G1 with its nodes relabelled, every row of |U1| is a unit vector and G2's node
// perm[j] has G1's node j's row, so the planted pairs score exactly 1 and, by Cauchy-Schwarz,
// nothing scores more; relabelling G2 again permutes the rows of the output. Random graphs on
// 9 nodes, drawn again until their eigenvalues are distinct (a repeated eigenvalue leaves the
// eigenvectors' basis to the solver, and the similarity with it).
func TestSpectralSimilarityRelabelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 50))
	const b, n = 4, 9
	perms := make([][]int, b)
	v := make([]float64, b*2*n*n)
	for g := range b {
		a := randAdjacency(rng, 1, n).Float64s()[n*n:] // the second graph drawn has no forced isolated node
		for !distinctEigenvalues(a, n) {
			a = randAdjacency(rng, 1, n).Float64s()[n*n:]
		}
		perms[g] = rng.Perm(n)
		copy(v[g*2*n*n:], a)
		for i := range n {
			for j := range n {
				v[g*2*n*n+n*n+perms[g][i]*n+perms[g][j]] = a[i*n+j]
			}
		}
	}
	sim := opstest.RunForward(t, tensor.Float64, []*tensor.Dense{tensor.New(tensor.WithShape(b, 2*n, n), tensor.WithBacking(v))},
		func(p []*G.Node) (*G.Node, error) { return SpectralSimilarity(p[0]) })
	for g := range b {
		s := sim[g*n*n:][:n*n]
		below := 0
		for i := range n {
			for j := range n {
				if perms[g][j] == i {
					if math.Abs(s[i*n+j]-1) > 1e-9 {
						t.Errorf("pair %d: planted (G2 %d, G1 %d) scores %v, want 1", g, i, j, s[i*n+j])
					}
				} else if s[i*n+j] > 1+1e-9 {
					t.Errorf("pair %d: (G2 %d, G1 %d) scores %v, above 1", g, i, j, s[i*n+j])
				} else if s[i*n+j] < 1-1e-6 {
					below++
				}
			}
		}
		if below == 0 {
			t.Errorf("pair %d: every pair scores 1: the similarity tells no nodes apart", g)
		}
	}
	// Relabel pair 0's G2 by q: row i of the output must become row q^-1(i).
	q := rng.Perm(n)
	w := append([]float64(nil), v[:2*n*n]...)
	for i := range n {
		for j := range n {
			w[n*n+q[i]*n+q[j]] = v[n*n+i*n+j]
		}
	}
	re := opstest.RunForward(t, tensor.Float64, []*tensor.Dense{tensor.New(tensor.WithShape(1, 2*n, n), tensor.WithBacking(w))},
		func(p []*G.Node) (*G.Node, error) { return SpectralSimilarity(p[0]) })
	for i := range n {
		for j := range n {
			if d := math.Abs(re[q[i]*n+j] - sim[i*n+j]); d > 1e-9 {
				t.Errorf("relabelled G2: row %d col %d is %v, want %v", q[i], j, re[q[i]*n+j], sim[i*n+j])
			}
		}
	}
}

// distinctEigenvalues reports whether the symmetric n x n matrix a has no two eigenvalues
// within 1e-6.
func distinctEigenvalues(a []float64, n int) bool {
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(n, a), false) {
		return false
	}
	vals := es.Values(nil)
	slices.Sort(vals)
	for i := 1; i < n; i++ {
		if vals[i]-vals[i-1] < 1e-6 {
			return false
		}
	}
	return true
}

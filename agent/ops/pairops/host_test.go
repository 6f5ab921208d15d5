package pairops

import (
	"math/rand/v2"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

// ClosedWalksOf and SpectralSimilarityOf give the float32 nodes' outputs bit for bit, and refuse
// slices of the wrong length.
func TestGraphFeaturesOnSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 47))
	const b, n, maxLen = 3, 7, 6
	adj := randAdjacency(rng, b, n)
	x := toFloat32(adj.Float64s())
	in := func() []*tensor.Dense { return []*tensor.Dense{adj} }
	wantWalks := opstest.RunForward(t, tensor.Float32, in(), func(p []*G.Node) (*G.Node, error) {
		a, err := G.Reshape(p[0], []int{2 * b, n, n})
		if err != nil {
			return nil, err
		}
		return ClosedWalks(a, maxLen)
	})
	walks := make([]float32, 2*b*n*(maxLen-1))
	if err := ClosedWalksOf(walks, x, 2*b, n, maxLen); err != nil {
		t.Fatal(err)
	}
	wantSim := opstest.RunForward(t, tensor.Float32, in(), func(p []*G.Node) (*G.Node, error) { return SpectralSimilarity(p[0]) })
	sim := make([]float32, b*n*n)
	if err := SpectralSimilarityOf(sim, x, b, n); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []float32
	}{{"ClosedWalksOf", walks, toFloat32(wantWalks)}, {"SpectralSimilarityOf", sim, toFloat32(wantSim)}} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s differs from its node: %v, want %v", c.name, c.got[:8], c.want[:8])
		}
	}
	if ClosedWalksOf(walks[1:], x, 2*b, n, maxLen) == nil || SpectralSimilarityOf(sim, x[1:], b, n) == nil {
		t.Error("a slice of the wrong length was taken")
	}
}

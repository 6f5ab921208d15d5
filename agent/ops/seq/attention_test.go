package seq

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// naiveAttention is multi-head self-attention written out element by element.
func naiveAttention(x, wqkv, wo []float64, b, n, d, heads int) []float64 {
	dk := d / heads
	proj := func(i, r, col int) float64 { // (x Wqkv)[instance i, item r, column col]
		var s float64
		for c := range d {
			s += x[(i*n+r)*d+c] * wqkv[c*3*d+col]
		}
		return s
	}
	y := make([]float64, b*n*d)
	for i := range b {
		cat := make([]float64, n*d)
		for h := range heads {
			for r := range n {
				sc := make([]float64, n)
				m := math.Inf(-1)
				for j := range n {
					for c := range dk {
						sc[j] += proj(i, r, h*dk+c) * proj(i, j, d+h*dk+c)
					}
					sc[j] /= math.Sqrt(float64(dk))
					m = max(m, sc[j])
				}
				var z float64
				for j := range sc {
					sc[j] = math.Exp(sc[j] - m)
					z += sc[j]
				}
				for c := range dk {
					for j := range n {
						cat[r*d+h*dk+c] += sc[j] / z * proj(i, j, 2*d+h*dk+c)
					}
				}
			}
		}
		for r := range n {
			for c := range d {
				for e := range d {
					y[(i*n+r)*d+c] += cat[r*d+e] * wo[e*d+c]
				}
			}
		}
	}
	return y
}

// checkAttentionForward draws a random input and weights for a batch of b sets of n vectors
// of width d, checks SelfAttention's forward pass against naiveAttention, and returns the
// values as gradcheck parameters with the op over their nodes.
func checkAttentionForward(t *testing.T, rng *rand.Rand, b, n, d, heads int) ([]gradcheck.Param, func(*G.ExprGraph, []*G.Node) (*G.Node, error)) {
	t.Helper()
	x, wqkv, wo := opstest.RandDense(rng, b, n, d), opstest.RandDense(rng, d, 3*d), opstest.RandDense(rng, d, d)
	vals := []*tensor.Dense{x, wqkv, wo}
	build := func(p []*G.Node) (*G.Node, error) {
		return SelfAttention(p[0], p[1], p[2], AttentionOptions{Heads: heads})
	}
	opstest.CheckForward(t, vals, naiveAttention(x.Float64s(), wqkv.Float64s(), wo.Float64s(), b, n, d, heads), 1e-5, build)
	return opstest.GradParams(vals...), func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) { return build(p) }
}

func TestSelfAttention(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	params, build := checkAttentionForward(t, rng, 3, 5, 4, 2)
	opstest.CheckOpGrads(t, rng, params, build)
}

// With NoInputGrad only the weights are differentiated, with Frozen only the input.
func TestSelfAttentionOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	x, wqkv, wo := opstest.RandDense(rng, 2, 3, 6), opstest.RandDense(rng, 6, 18), opstest.RandDense(rng, 6, 6)
	constant := func(g *G.ExprGraph, v *tensor.Dense, name string) *G.Node {
		return G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(name), G.WithValue(v))
	}
	opstest.CheckOpGrads(t, rng, opstest.GradParams(wqkv, wo), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return SelfAttention(constant(g, x, "x"), p[0], p[1], AttentionOptions{Heads: 3, NoInputGrad: true})
	})
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return SelfAttention(p[0], constant(g, wqkv, "wqkv"), constant(g, wo, "wo"), AttentionOptions{Heads: 1, Frozen: true})
	})
}

// TestSelfAttentionParallel checks a batch large enough to be split over the cores, with
// sampled gradients.
func TestSelfAttentionParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	params, build := checkAttentionForward(t, rng, 16, 7, 8, 4)
	opstest.CheckOpGradsWith(t, rng, params, gradcheck.Options{MaxElems: 40, Seed: 9}, build)
}

func TestSelfAttentionErrors(t *testing.T) {
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("x"))
	wqkv := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 12), G.WithName("wqkv"))
	wo := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 4), G.WithName("wo"))
	bad := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 8), G.WithName("bad"))
	if _, err := SelfAttention(x, wqkv, wo, AttentionOptions{Heads: 3}); err == nil {
		t.Error("SelfAttention accepted 3 heads over width 4")
	}
	if _, err := SelfAttention(x, bad, wo, AttentionOptions{Heads: 2}); err == nil {
		t.Error("SelfAttention accepted Wqkv (4, 8) for width 4")
	}
}

package layers

import (
	"math/rand/v2"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// candidateFeatures gives features (b, n, n, 3) whose columns 1 and 2 say a pair is a candidate
// (below 1) about half the time each, and a row with no candidates when n > 2.
func candidateFeatures(rng *rand.Rand, b, n int) *tensor.Dense {
	fs := make([]float64, b*n*n*3)
	for p := range b * n * n {
		fs[p*3] = rng.Float64()
		fs[p*3+1], fs[p*3+2] = float64(rng.IntN(2)), float64(rng.IntN(2))
		if n > 2 && p/n == 1 { // node 1 of instance 0: no pair out of it
			fs[p*3+1], fs[p*3+2] = 1, 1
		}
	}
	return tensor.New(tensor.WithShape(b, n, n, 3), tensor.WithBacking(fs))
}

// naiveNeighbourMeans is NeighbourMeans by its definition.
func naiveNeighbourMeans(h, f []float64, b, n, w int) []float64 {
	cand := func(bi, i, j int) bool {
		p := (bi*n+i)*n + j
		return i != j && (f[p*3+1] < 1 || f[p*3+2] < 1)
	}
	out := make([]float64, b*n*2*w)
	for bi := range b {
		for i := range n {
			var outs, ins float64
			for j := range n {
				if cand(bi, i, j) {
					outs++
					for q := range w {
						out[(bi*n+i)*2*w+q] += h[((bi*n+i)*n+j)*w+q]
					}
				}
				if cand(bi, j, i) {
					ins++
					for q := range w {
						out[(bi*n+i)*2*w+w+q] += h[((bi*n+j)*n+i)*w+q]
					}
				}
			}
			for q := range w {
				if outs > 0 {
					out[(bi*n+i)*2*w+q] /= outs
				}
				if ins > 0 {
					out[(bi*n+i)*2*w+w+q] /= ins
				}
			}
		}
	}
	return out
}

// linearStep is the finite-difference step for a linear op over many outputs: the probe's
// rounding over 16K of them, over the default step (1e-5), is about 1e-9, past the tolerance
// for gradients near 1e-4, and a linear op has no truncation error at any step.
const linearStep = 1e-2

// NeighbourMeans against its definition, small and large enough to be split over the cores;
// its gradient against finite differences; its refusal of shapes that do not fit.
func TestNeighbourMeans(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(91, 92))
	for _, s := range []struct{ b, n, w int }{{2, 4, 3}, {1, 2, 2}, {3, 40, 16}} {
		h, f := opstest.RandDense(rng, s.b, s.n, s.n, s.w), candidateFeatures(rng, s.b, s.n)
		want := naiveNeighbourMeans(h.Float64s(), f.Float64s(), s.b, s.n, s.w)
		opstest.CheckForward(t, []*tensor.Dense{h, f}, want, 1e-5, func(p []*G.Node) (*G.Node, error) { return NeighbourMeans(p[0], p[1], []int{1, 2}) })
	}
	for _, s := range []struct{ b, n, w int }{{2, 4, 3}, {2, 32, 16}} {
		h, f := opstest.RandDense(rng, s.b, s.n, s.n, s.w), candidateFeatures(rng, s.b, s.n)
		opstest.CheckOpGradsWith(t, rng, opstest.GradParams(h), gradcheck.Options{MaxElems: 300, Seed: 5, Step: linearStep}, func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
			fn := G.NewTensor(g, tensor.Float64, 4, G.WithShape(f.Shape()...), G.WithName("f"), G.WithValue(f))
			return NeighbourMeans(p[0], fn, []int{1, 2})
		})
	}
	g := G.NewGraph()
	h := G.NewTensor(g, tensor.Float64, 4, G.WithShape(2, 4, 4, 3), G.WithName("h"))
	if _, err := NeighbourMeans(h, G.NewTensor(g, tensor.Float64, 4, G.WithShape(2, 4, 5, 3), G.WithName("f")), []int{1}); err == nil {
		t.Error("NeighbourMeans accepted features of another shape")
	}
	if _, err := NeighbourMeans(h, G.NewTensor(g, tensor.Float64, 4, G.WithShape(2, 4, 4, 3), G.WithName("f2")), []int{3}); err == nil {
		t.Error("NeighbourMeans accepted a feature column past the features")
	}
}

// AddNodeTerms against its definition, with and without its activation, small and large enough
// to be split over the cores; its gradients against finite differences (at the large size without
// the activation); its refusal of node terms that do not fit.
func TestAddNodeTerms(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(93, 94))
	for _, act := range []Activation{Identity, LeakyReLU} {
		for _, s := range []struct{ b, n, w int }{{2, 3, 2}, {2, 32, 16}} {
			z, tn := opstest.RandDense(rng, s.b, s.n, s.n, s.w), opstest.RandDense(rng, s.b, s.n, 2*s.w)
			zs, ts := z.Float64s(), tn.Float64s()
			want := make([]float64, len(zs))
			for bi := range s.b {
				for i := range s.n {
					for j := range s.n {
						for q := range s.w {
							v := zs[((bi*s.n+i)*s.n+j)*s.w+q] + ts[(bi*s.n+i)*2*s.w+q] + ts[(bi*s.n+j)*2*s.w+s.w+q]
							if act == LeakyReLU && v < 0 {
								v *= LeakySlope
							}
							want[((bi*s.n+i)*s.n+j)*s.w+q] = v
						}
					}
				}
			}
			build := func(p []*G.Node) (*G.Node, error) { return AddNodeTerms(p[0], p[1], act) }
			opstest.CheckForward(t, []*tensor.Dense{z, tn}, want, 1e-5, build)
			opts := gradcheck.Options{MaxElems: 300, Seed: 6}
			if s.n > 3 {
				if act == LeakyReLU {
					continue
				}
				opts.Step = linearStep
			}
			opstest.CheckOpGradsWith(t, rng, opstest.GradParams(z, tn), opts, func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) { return build(p) })
		}
	}
	g := G.NewGraph()
	z := G.NewTensor(g, tensor.Float64, 4, G.WithShape(2, 4, 4, 3), G.WithName("z"))
	if _, err := AddNodeTerms(z, G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 4, 3), G.WithName("t")), LeakyReLU); err == nil {
		t.Error("AddNodeTerms accepted node terms of width H, not 2H")
	}
}

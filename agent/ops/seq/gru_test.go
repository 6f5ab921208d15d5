package seq

import (
	"math"
	"math/rand/v2"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// naiveGRU runs PyTorch's GRU equations step by step from a zero state over x (b, t, in) and
// returns the states (b, t, h); reverse runs time backwards.
func naiveGRU(x, wih, whh, bih, bhh []float64, b, t, in, h int, reverse bool) []float64 {
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	out := make([]float64, b*t*h)
	for bi := range b {
		hp := make([]float64, h)
		for s := range t {
			ti := s
			if reverse {
				ti = t - 1 - s
			}
			xt := x[(bi*t+ti)*in:][:in]
			// a[g*h+j] = Wi x + bi and c[g*h+j] = Wh h + bh for gate g in r, z, n.
			a, c := make([]float64, 3*h), make([]float64, 3*h)
			for r := range 3 * h {
				a[r], c[r] = bih[r], bhh[r]
				for k := range in {
					a[r] += wih[r*in+k] * xt[k]
				}
				for k := range h {
					c[r] += whh[r*h+k] * hp[k]
				}
			}
			hn := make([]float64, h)
			for j := range h {
				rg := sig(a[j] + c[j])
				zg := sig(a[h+j] + c[h+j])
				ng := math.Tanh(a[2*h+j] + rg*c[2*h+j])
				hn[j] = (1-zg)*ng + zg*hp[j]
			}
			hp = hn
			copy(out[(bi*t+ti)*h:][:h], hn)
		}
	}
	return out
}

// gruWeightVals returns random Wih, Whh, Bih, Bhh for input width in and hidden width h.
func gruWeightVals(rng *rand.Rand, in, h int) []*tensor.Dense {
	return []*tensor.Dense{opstest.RandDense(rng, 3*h, in), opstest.RandDense(rng, 3*h, h), opstest.RandDense(rng, 3*h), opstest.RandDense(rng, 3*h)}
}

// gruNodes groups p[0:4] as weights.
func gruNodes(p []*G.Node) GRUWeights { return GRUWeights{Wih: p[0], Whh: p[1], Bih: p[2], Bhh: p[3]} }

func TestGRU(t *testing.T) {
	const b, tt, in, h = 2, 3, 2, 3
	rng := rand.New(rand.NewPCG(31, 32))
	x := opstest.RandDense(rng, b, tt, in)
	fw, rw := gruWeightVals(rng, in, h), gruWeightVals(rng, in, h)
	f64 := func(ts []*tensor.Dense) [][]float64 {
		out := make([][]float64, len(ts))
		for i, v := range ts {
			out[i] = v.Float64s()
		}
		return out
	}
	fd, rd := f64(fw), f64(rw)
	fwd := naiveGRU(x.Float64s(), fd[0], fd[1], fd[2], fd[3], b, tt, in, h, false)
	rev := naiveGRU(x.Float64s(), rd[0], rd[1], rd[2], rd[3], b, tt, in, h, true)
	bi := make([]float64, 0, 2*len(fwd))
	for r := range b * tt {
		bi = append(append(bi, fwd[r*h:][:h]...), rev[r*h:][:h]...)
	}

	for _, c := range []struct {
		name string
		vals []*tensor.Dense
		want []float64
		op   func(p []*G.Node) (*G.Node, error)
	}{
		{"GRU", append([]*tensor.Dense{x}, fw...), fwd, func(p []*G.Node) (*G.Node, error) {
			return GRU(p[0], gruNodes(p[1:]), GRUOptions{})
		}},
		{"BiGRU", append(append([]*tensor.Dense{x}, fw...), rw...), bi, func(p []*G.Node) (*G.Node, error) {
			return BiGRU(p[0], gruNodes(p[1:]), gruNodes(p[5:]), GRUOptions{})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			opstest.CheckForward(t, c.vals, c.want, 1e-5, c.op)
			opstest.CheckOpGrads(t, rng, opstest.GradParams(c.vals...), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
				return c.op(p)
			})
		})
	}
}

// Frozen weights (the critic's GRU inside the actor's update) still pass the right gradient to
// x; NoInputGrad leaves the weights' gradients right.
func TestGRUOptions(t *testing.T) {
	const b, tt, in, h = 2, 3, 2, 3
	rng := rand.New(rand.NewPCG(33, 34))
	x := opstest.RandDense(rng, b, tt, in)
	fw, rw := gruWeightVals(rng, in, h), gruWeightVals(rng, in, h)
	constants := func(g *G.ExprGraph, vals []*tensor.Dense, prefix string) GRUWeights {
		n := make([]*G.Node, 4)
		for i, v := range vals {
			n[i] = G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(prefix+string(rune('0'+i))), G.WithValue(v))
		}
		return gruNodes(n)
	}
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return BiGRU(p[0], constants(g, fw, "f"), constants(g, rw, "r"), GRUOptions{Frozen: true})
	})
	opstest.CheckOpGrads(t, rng, opstest.GradParams(append(fw, rw...)...), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		xn := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, tt, in), G.WithName("x"), G.WithValue(x))
		return BiGRU(xn, gruNodes(p), gruNodes(p[4:]), GRUOptions{NoInputGrad: true})
	})
}

func TestGRUErrors(t *testing.T) {
	g := G.NewGraph()
	node := func(name string, s ...int) *G.Node {
		return G.NewTensor(g, tensor.Float64, len(s), G.WithShape(s...), G.WithName(name))
	}
	x := node("x", 2, 3, 4)
	good := GRUWeights{node("wih", 15, 4), node("whh", 15, 5), node("bih", 15), node("bhh", 15)}
	if _, err := GRU(x, good, GRUOptions{}); err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Wih = node("wih2", 15, 3)
	if _, err := GRU(x, bad, GRUOptions{}); err == nil {
		t.Error("GRU accepted Wih (15,3) for input width 4")
	}
	bad = good
	bad.Bhh = node("bhh2", 12)
	if _, err := BiGRU(x, good, bad, GRUOptions{}); err == nil {
		t.Error("BiGRU accepted a reverse Bhh of the wrong length")
	}
}

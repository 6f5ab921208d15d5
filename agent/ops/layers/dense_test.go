package layers

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// naiveDense is act(x w + b) row by row; b may be nil.
func naiveDense(x, w, b []float64, in, out int, act Activation) []float64 {
	rows := len(x) / in
	y := make([]float64, rows*out)
	for r := range rows {
		for j := range out {
			var s float64
			if b != nil {
				s = b[j]
			}
			for k := range in {
				s += x[r*in+k] * w[k*out+j]
			}
			if act == LeakyReLU {
				s = leaky(s)
			}
			y[r*out+j] = s
		}
	}
	return y
}

func TestDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, act := range []Activation{Identity, LeakyReLU} {
		for _, bias := range []bool{true, false} {
			x, w, b := opstest.RandDense(rng, 2, 3, 4), opstest.RandDense(rng, 4, 5), opstest.RandDense(rng, 5)
			vals := []*tensor.Dense{x, w}
			var bd []float64
			if bias {
				vals, bd = append(vals, b), b.Float64s()
			}
			build := func(o DenseOptions) func([]*G.Node) (*G.Node, error) {
				o.Act = act
				return func(p []*G.Node) (*G.Node, error) {
					var bn *G.Node
					if bias {
						bn = p[2]
					}
					return Dense(p[0], p[1], bn, o)
				}
			}
			want := naiveDense(x.Float64s(), w.Float64s(), bd, 4, 5, act)
			opstest.CheckForward(t, vals, want, 1e-6, build(DenseOptions{}))

			t.Logf("act %v, bias %v", act, bias)
			opstest.CheckOpGrads(t, rng, opstest.GradParams(vals...), func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
				return build(DenseOptions{})(p)
			})
		}
	}
}

// With NoInputGrad only the weights are differentiated, with Frozen only the input; the
// gradients that are still wanted stay right.
func TestDenseOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	x, w, b := opstest.RandDense(rng, 6, 3), opstest.RandDense(rng, 3, 2), opstest.RandDense(rng, 2)
	constant := func(g *G.ExprGraph, v *tensor.Dense, name string) *G.Node {
		return G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(name), G.WithValue(v))
	}
	opstest.CheckOpGrads(t, rng, opstest.GradParams(w, b), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return Dense(constant(g, x, "x"), p[0], p[1], DenseOptions{Act: LeakyReLU, NoInputGrad: true})
	})
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return Dense(p[0], constant(g, w, "w"), constant(g, b, "b"), DenseOptions{Act: LeakyReLU, Frozen: true})
	})
}

func TestDenseErrors(t *testing.T) {
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float64, G.WithShape(2, 3), G.WithName("x"))
	w := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 5), G.WithName("w"))
	w2 := G.NewMatrix(g, tensor.Float64, G.WithShape(3, 5), G.WithName("w2"))
	b := G.NewVector(g, tensor.Float64, G.WithShape(4), G.WithName("b"))
	if _, err := Dense(x, w, nil, DenseOptions{}); err == nil {
		t.Error("Dense accepted x (2,3) times w (4,5)")
	}
	if _, err := Dense(x, w2, b, DenseOptions{}); err == nil {
		t.Error("Dense accepted a bias of length 4 for 5 outputs")
	}
	if _, err := Dense(x, w2, nil, DenseOptions{Act: Activation(9)}); err == nil {
		t.Error("Dense accepted an unknown activation")
	}
}

// TestDenseParallel checks a layer large enough to be split by rows over goroutines: the
// forward pass against the naive one and sampled gradients of all inputs against finite
// differences.
func TestDenseParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const rows, in, out = 300, 20, 128 // rows*(in+out) >= minParallelElems
	x, w, b := opstest.RandDense(rng, 3, rows/3, in), opstest.RandDense(rng, in, out), opstest.RandDense(rng, out)
	vals := []*tensor.Dense{x, w, b}
	build := func(p []*G.Node) (*G.Node, error) { return Dense(p[0], p[1], p[2], DenseOptions{Act: LeakyReLU}) }
	opstest.CheckForward(t, vals, naiveDense(x.Float64s(), w.Float64s(), b.Float64s(), in, out, LeakyReLU), 1e-5, build)
	opstest.CheckOpGradsWith(t, rng, opstest.GradParams(vals...), gradcheck.Options{MaxElems: 40, Seed: 7}, func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return build(p)
	})
}

// TestFillRows checks fillRows against a copy per row, for rows narrower and wider than its
// block and row counts that end inside and at a doubling.
func TestFillRows(t *testing.T) {
	for _, w := range []int{1, 3, 32, 128, 4095, 4097} {
		for _, rows := range []int{0, 1, 2, 3, 7, 64, 1000} {
			b := make([]float32, w)
			for i := range b {
				b[i] = float32(i) + 0.5
			}
			y := make([]float32, rows*w+1)
			y[rows*w] = -1
			fillRows(y[:rows*w], b)
			for r := range rows {
				for j, v := range y[r*w : (r+1)*w] {
					if v != b[j] {
						t.Fatalf("w=%d rows=%d: row %d col %d = %v, want %v", w, rows, r, j, v, b[j])
					}
				}
			}
			if y[rows*w] != -1 {
				t.Fatalf("w=%d rows=%d: wrote past y", w, rows)
			}
		}
	}
}

// leaky is the reference LeakyReLU.
func leaky(v float64) float64 {
	if v < 0 {
		return LeakySlope * v
	}
	return v
}

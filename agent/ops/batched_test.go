package ops

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/backend"
)

// productShapes returns the stored shapes of a and b for op(a) m x k and op(b) k x n.
func productShapes(b, m, k, n int, o ProductOptions) (sa, sb []int) {
	sa, sb = []int{b, m, k}, []int{b, k, n}
	if o.TransA {
		sa = []int{b, k, m}
	}
	if o.TransB {
		sb = []int{b, n, k}
	}
	return sa, sb
}

// productOptions is every combination of transposes.
var productOptions = []ProductOptions{{}, {TransA: true}, {TransB: true}, {TransA: true, TransB: true}}

func TestBatchedProduct(t *testing.T) {
	const b, m, k, n = 2, 3, 4, 5
	rng := rand.New(rand.NewPCG(41, 42))
	for _, o := range productOptions {
		t.Run(fmt.Sprintf("%v,%v", o.TransA, o.TransB), func(t *testing.T) {
			sa, sb := productShapes(b, m, k, n, o)
			x, y := randDense(rng, sa...), randDense(rng, sb...)
			at := func(v *tensor.Dense, bi, i, j int, tr bool) float64 {
				s := v.Shape()
				if tr {
					i, j = j, i
				}
				return v.Float64s()[(bi*s[1]+i)*s[2]+j]
			}
			want := make([]float64, b*m*n)
			for bi := range b {
				for i := range m {
					for j := range n {
						var s float64
						for l := range k {
							s += at(x, bi, i, l, o.TransA) * at(y, bi, l, j, o.TransB)
						}
						want[(bi*m+i)*n+j] = s
					}
				}
			}
			build := func(p []*G.Node) (*G.Node, error) { return BatchedProduct(p[0], p[1], o) }
			checkForward(t, []*tensor.Dense{x, y}, want, 1e-6, build)
			checkOpGrads(t, rng, gradParams(x, y), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
				return build(p)
			})
		})
	}

	g := G.NewGraph()
	a := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("a"))
	c := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("c"))
	if _, err := BatchedProduct(a, c, ProductOptions{}); err == nil {
		t.Error("BatchedProduct accepted inner dimensions 4 and 3")
	}
}

// TestBatchedProductAsGorgonia checks, in float32 and on a batch large enough to be split over
// goroutines, that BatchedProduct gives gorgonia's BatchedMatMul's output and gradients bit for
// bit, so that swapping one for the other leaves training records as they were.
func TestBatchedProductAsGorgonia(t *testing.T) {
	const b, m, k, n = 64, 20, 32, 20 // b*2mnk >= minSplitBatchFlops
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	// gorgonia on the BLAS the kernels use, as the learner sets it.
	defer G.Use(G.WhichBLAS())
	G.Use(backend.Implementation())
	rng := rand.New(rand.NewPCG(43, 44))
	fill := func(shape ...int) *tensor.Dense {
		v := make([]float32, b*shape[1]*shape[2])
		for i := range v {
			v[i] = 2*rng.Float32() - 1
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(v))
	}
	for _, o := range productOptions {
		sa, sb := productShapes(b, m, k, n, o)
		x, y, r := fill(sa...), fill(sb...), fill(b, m, n)
		run := func(mul func(a, c *G.Node) (*G.Node, error)) (out, da, db []float32) {
			g := G.NewGraph()
			a := G.NewTensor(g, tensor.Float32, 3, G.WithShape(sa...), G.WithName("a"), G.WithValue(x.Clone()))
			c := G.NewTensor(g, tensor.Float32, 3, G.WithShape(sb...), G.WithName("b"), G.WithValue(y.Clone()))
			w := G.NewTensor(g, tensor.Float32, 3, G.WithShape(b, m, n), G.WithName("r"), G.WithValue(r.Clone()))
			p := must(t)(mul(a, c))
			loss := must(t)(G.Sum(must(t)(G.HadamardProd(p, w))))
			if _, err := G.Grad(loss, a, c); err != nil {
				t.Fatal(err)
			}
			var pv G.Value
			G.Read(p, &pv)
			vm := G.NewTapeMachine(g, G.BindDualValues(a, c))
			defer vm.Close()
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			ga, _ := a.Grad()
			gb, _ := c.Grad()
			return slices32(pv), slices32(ga), slices32(gb)
		}
		got := [3][]float32{}
		got[0], got[1], got[2] = run(func(a, c *G.Node) (*G.Node, error) { return BatchedProduct(a, c, o) })
		want := [3][]float32{}
		want[0], want[1], want[2] = run(func(a, c *G.Node) (*G.Node, error) { return G.BatchedMatMul(a, c, o.TransA, o.TransB) })
		for w, name := range []string{"product", "dA", "dB"} {
			for i := range want[w] {
				if got[w][i] != want[w][i] {
					t.Fatalf("transposes %v, %v: %s[%d] = %v, gorgonia's %v", o.TransA, o.TransB, name, i, got[w][i], want[w][i])
				}
			}
		}
	}
}

// slices32 copies a float32 value's elements.
func slices32(v G.Value) []float32 {
	return append([]float32(nil), v.Data().([]float32)...)
}

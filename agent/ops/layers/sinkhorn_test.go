package layers

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// naiveSinkhorn is the log-domain definition: z = x/tau, then iters times subtract each row's
// and then each column's log-sum-exp; M = exp(z). x holds b matrices n×n.
func naiveSinkhorn(x []float64, b, n int, tau float64, iters int) []float64 {
	m := make([]float64, len(x))
	for k := range b {
		z := make([]float64, n*n)
		for i := range z {
			z[i] = x[k*n*n+i] / tau
		}
		lse := func(idx func(int) int) float64 {
			mx := math.Inf(-1)
			for t := range n {
				mx = max(mx, z[idx(t)])
			}
			var s float64
			for t := range n {
				s += math.Exp(z[idx(t)] - mx)
			}
			return mx + math.Log(s)
		}
		for range iters {
			for i := range n {
				l := lse(func(j int) int { return i*n + j })
				for j := range n {
					z[i*n+j] -= l
				}
			}
			for j := range n {
				l := lse(func(i int) int { return i*n + j })
				for i := range n {
					z[i*n+j] -= l
				}
			}
		}
		for i, v := range z {
			m[k*n*n+i] = math.Exp(v)
		}
	}
	return m
}

func TestSinkhorn(t *testing.T) {
	const b, n = 2, 3
	rng := rand.New(rand.NewPCG(11, 12))
	params := []gradcheck.Param{{Name: "X", Value: opstest.RandDense(rng, b, n, n)}}
	cost := opstest.RandDense(rng, b, n, n)
	var layer *SinkhornLayer
	var mv G.Value
	build := func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		c := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n), G.WithName("C"), G.WithValue(cost))
		m, l, err := Sinkhorn(p[0])
		if err != nil {
			return nil, err
		}
		l.Set(0.7, 4)
		layer = l
		G.Read(m, &mv)
		// A linear and a non-linear use of M.
		return G.Add(G.Must(G.Sum(G.Must(G.HadamardProd(m, c)))), G.Must(G.Sum(G.Must(G.Tanh(G.Must(G.Square(m)))))))
	}
	c, err := gradcheck.New(params, build)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, set := range []struct {
		tau   float64
		iters int
	}{{0.7, 4}, {0.3, 2}, {1.5, 7}} {
		layer.Set(set.tau, set.iters)
		res, err := c.Check(gradcheck.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tau %v, iters %d", set.tau, set.iters)
		opstest.CheckGrads(t, res, 1e-6)
		if _, err := c.Loss(); err != nil { // Check's last run was at a perturbed X
			t.Fatal(err)
		}
		want := naiveSinkhorn(params[0].Value.Float64s(), b, n, set.tau, set.iters)
		for i, v := range mv.Data().([]float64) {
			if math.Abs(v-want[i]) > 1e-12 {
				t.Errorf("tau %v, iters %d: M[%d] = %v, want %v", set.tau, set.iters, i, v, want[i])
			}
		}
	}
}

// Forward only (no G.Grad, so nothing saved), in float32 and float64.
func TestSinkhornForwardOnly(t *testing.T) {
	const b, n, tau, iters = 3, 4, 0.5, 5
	rng := rand.New(rand.NewPCG(13, 14))
	x := opstest.RandDense(rng, b, n, n)
	want := naiveSinkhorn(x.Float64s(), b, n, tau, iters)
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		g := G.NewGraph()
		xv := tensor.New(tensor.WithShape(b, n, n), tensor.Of(dt))
		for i, v := range x.Float64s() {
			if dt == tensor.Float32 {
				xv.Float32s()[i] = float32(v)
			} else {
				xv.Float64s()[i] = v
			}
		}
		xn := G.NewTensor(g, dt, 3, G.WithShape(b, n, n), G.WithName("X"), G.WithValue(xv))
		m, layer, err := Sinkhorn(xn)
		if err != nil {
			t.Fatal(err)
		}
		vm := G.NewTapeMachine(g)
		// A layer whose tau and L nobody set refuses to run rather than divide by a zero tau.
		if err := vm.RunAll(); err == nil || !strings.Contains(err.Error(), "run before its layer's Set") {
			t.Fatalf("unset layer ran: %v", err)
		}
		layer.Set(tau, iters)
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		tol := 1e-12
		got := make([]float64, b*n*n)
		if dt == tensor.Float32 {
			tol = 1e-5
			for i, v := range m.Value().Data().([]float32) {
				got[i] = float64(v)
			}
		} else {
			copy(got, m.Value().Data().([]float64))
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > tol {
				t.Errorf("%v: M[%d] = %v, want %v", dt, i, got[i], want[i])
			}
		}
		vm.Close()
	}
}

// The op refuses only a shape; tau and L are checked once, by run.Config.Validate, and an
// unset layer refuses to run (TestSinkhornForwardOnly).
func TestSinkhornShapeError(t *testing.T) {
	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("bad"))
	if _, _, err := Sinkhorn(bad); err == nil {
		t.Error("Sinkhorn accepted 3 x 4 scores")
	}
}

package ops

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// The critic penalty pattern: MSE(StopGradient(Qp), Qm), with Q one critic applied to P and to
// M. Its gradient opstest.Must be that of MSE(c, Qm) with c a constant equal to Qp.
func TestStopGradientCriticPenalty(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	p, m := opstest.RandDense(rng, 6, 4), opstest.RandDense(rng, 6, 4)
	params := []gradcheck.Param{{Name: "wc", Value: opstest.RandDense(rng, 4, 1)}}
	critic := func(g *G.ExprGraph, name string, x *tensor.Dense, wc *G.Node) (*G.Node, error) {
		xn := G.NewMatrix(g, tensor.Float64, G.WithShape(6, 4), G.WithName(name), G.WithValue(x))
		h, err := Apply(&matMul[float64]{}, xn, wc)
		if err != nil {
			return nil, err
		}
		return G.Tanh(h)
	}
	mse := func(a, b *G.Node) (*G.Node, error) { return G.Mean(G.Must(G.Square(G.Must(G.Sub(a, b))))) }
	withStop := func(g *G.ExprGraph, ps []*G.Node) (*G.Node, error) {
		qp, err := critic(g, "P", p, ps[0])
		if err != nil {
			return nil, err
		}
		qm, err := critic(g, "M", m, ps[0])
		if err != nil {
			return nil, err
		}
		sp, err := StopGradient(qp)
		if err != nil {
			return nil, err
		}
		return mse(sp, qm)
	}
	withConst := func(g *G.ExprGraph, ps []*G.Node) (*G.Node, error) {
		// Qp at the current wc, computed by hand and fed as data.
		qp := tensor.New(tensor.WithShape(6, 1), tensor.Of(tensor.Float64))
		w := params[0].Value.Float64s()
		for i := range 6 {
			var s float64
			for j := range 4 {
				s += p.Float64s()[i*4+j] * w[j]
			}
			qp.Float64s()[i] = math.Tanh(s)
		}
		qpn := G.NewMatrix(g, tensor.Float64, G.WithShape(6, 1), G.WithName("Qp"), G.WithValue(qp))
		qm, err := critic(g, "M", m, ps[0])
		if err != nil {
			return nil, err
		}
		return mse(qpn, qm)
	}

	ref, err := gradcheck.New(params, withConst)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	res, err := ref.Check(gradcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opstest.CheckGrads(t, res, 1e-6)
	wantLoss, want, err := ref.Gradients()
	if err != nil {
		t.Fatal(err)
	}

	c, err := gradcheck.New(params, withStop)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for run := range 2 {
		loss, got, err := c.Gradients()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(loss-wantLoss) > 1e-14 {
			t.Errorf("run %d: loss %v, want %v", run, loss, wantLoss)
		}
		for i := range want[0] {
			if math.Abs(got[0][i]-want[0][i]) > 1e-12 {
				t.Errorf("run %d: dloss/dwc[%d] = %v, want %v (gradient through Qm only)", run, i, got[0][i], want[0][i])
			}
		}
	}
	// Sanity: the full derivative (through Qp too) differs, so the comparison above is not vacuous.
	full, err := c.Check(gradcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if full[0].MaxRelErr < 1e-3 {
		t.Errorf("gradient with StopGradient matches the full derivative: %v", full[0])
	}
}

func TestStopGradientForward(t *testing.T) {
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		g := G.NewGraph()
		xv := tensor.New(tensor.WithShape(3, 3), tensor.Of(dt))
		want := make([]float64, 9)
		for i := range want {
			want[i] = float64(i) - 4
			if err := xv.SetAt(castTo(dt, want[i]), i/3, i%3); err != nil {
				t.Fatal(err)
			}
		}
		x := G.NewMatrix(g, dt, G.WithShape(3, 3), G.WithName("x"), G.WithValue(xv))
		e := opstest.Must(t)(G.Exp(x))
		s := opstest.Must(t)(StopGradient(e))
		// The first product overwrites its input s in place (s is read by nothing else); that
		// opstest.Must not reach e, which the second product still reads.
		th := opstest.Must(t)(G.HadamardProd(s, x))
		loss := opstest.Must(t)(G.Sum(opstest.Must(t)(G.HadamardProd(th, e))))
		m := G.NewTapeMachine(g)
		for run := range 2 {
			m.Reset()
			if err := m.RunAll(); err != nil {
				t.Fatal(err)
			}
			var sum float64
			for _, v := range want {
				sum += math.Exp(v) * v * math.Exp(v)
			}
			got := toFloat64(loss.Value().Data())
			if math.Abs(got-sum) > 1e-5*math.Abs(sum) {
				t.Errorf("%v run %d: loss %v, want %v", dt, run, got, sum)
			}
			for i, v := range want {
				a, err := xv.At(i/3, i%3)
				if err != nil {
					t.Fatal(err)
				}
				if got := toFloat64(a); got != v {
					t.Errorf("%v: x[%d] changed to %v", dt, i, got)
				}
			}
		}
		m.Close()

		// No gradient reaches x through StopGradient alone.
		if _, err := G.Grad(opstest.Must(t)(G.Sum(opstest.Must(t)(G.Tanh(s)))), x); err == nil {
			t.Errorf("%v: G.Grad through StopGradient only: no error", dt)
		}
	}
	if _, err := StopGradient(nil); err == nil {
		t.Error("StopGradient(nil): no error")
	}
}

func castTo(dt tensor.Dtype, v float64) any {
	if dt == tensor.Float32 {
		return float32(v)
	}
	return v
}

func toFloat64(v any) float64 {
	switch v := v.(type) {
	case float32:
		return float64(v)
	case float64:
		return v
	}
	panic(v)
}

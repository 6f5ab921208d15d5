package ops

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
	"spg-tui/linalg/assign"
)

// The forward pass is assign.Round of every matrix as one-hot rows; the backward pass hands
// sum(C ⊙ P)'s cotangent C to M unchanged. Both dtypes, a batch larger than one worker's share.
func TestRoundStraightThrough(t *testing.T) {
	const b, n = 37, 6
	for _, tc := range []struct {
		dt    tensor.Dtype
		byLog bool
	}{{tensor.Float32, false}, {tensor.Float64, false}, {tensor.Float32, true}, {tensor.Float64, true}} {
		dt := tc.dt
		rng := rand.New(rand.NewPCG(3, 4))
		m64, c64 := opstest.RandDense(rng, b, n, n), opstest.RandDense(rng, b, n, n)
		for i, v := range m64.Float64s() { // entries in [0, 1), as a Sinkhorn layer's, for the log
			m64.Float64s()[i] = (v + 1) / 2
		}
		m, c := opstest.ToDtype(m64, dt), opstest.ToDtype(c64, dt)
		round := assign.Round[float64]
		if tc.byLog {
			round = assign.RoundLog[float64]
		}

		want := make([]float64, b*n*n)
		var s assign.Solver
		perm := make([]int, n)
		for k := range b {
			if err := round(&s, m64.Float64s()[k*n*n:(k+1)*n*n], n, perm); err != nil {
				t.Fatal(err)
			}
			for i, j := range perm {
				want[(k*n+i)*n+j] = 1
			}
		}

		g := G.NewGraph()
		mn := G.NewTensor(g, dt, 3, G.WithShape(b, n, n), G.WithName("M"), G.WithValue(m))
		cn := G.NewTensor(g, dt, 3, G.WithShape(b, n, n), G.WithName("C"), G.WithValue(c))
		p := opstest.Must(t)(RoundStraightThrough(mn, tc.byLog))
		loss := opstest.Must(t)(G.Sum(opstest.Must(t)(G.HadamardProd(p, cn))))
		if _, err := G.Grad(loss, mn); err != nil {
			t.Fatal(err)
		}
		var pv G.Value
		G.Read(p, &pv)
		vm := G.NewTapeMachine(g, G.BindDualValues(mn))
		for run := range 2 { // the op's buffers are reused: a second run opstest.Must agree
			vm.Reset()
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			got := opstest.Float64s(t, pv.Data())
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%v, by log %v, run %d: P[%d] = %v, want %v", dt, tc.byLog, run, i, got[i], want[i])
				}
			}
		}
		gv, err := mn.Grad()
		if err != nil {
			t.Fatal(err)
		}
		grad, cs := opstest.Float64s(t, gv.Data()), opstest.Float64s(t, c.Data())
		for i := range cs {
			// The machine accumulated two runs' gradients.
			if grad[i] != 2*cs[i] {
				t.Fatalf("%v: dL/dM[%d] = %v, want 2 x %v", dt, i, grad[i], cs[i])
			}
		}
		vm.Close()
	}
}

// Anything but a batch of square matrices is refused.
func TestRoundStraightThroughShape(t *testing.T) {
	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Float32, 3, G.WithShape(2, 3, 4), G.WithName("x"))
	if _, err := RoundStraightThrough(x, false); err == nil {
		t.Error("a (2, 3, 4) input was accepted")
	}
}

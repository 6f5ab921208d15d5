package ops

import (
	"math/rand/v2"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// After the first run, the ops' Do methods allocate nothing: outputs, gradients and kernel state
// are buffers kept from run to run.
func TestDoAllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	xv, wv := opstest.RandDense(rng, 3, 4), opstest.RandDense(rng, 4, 5)
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float64, G.WithShape(3, 4), G.WithName("x"), G.WithValue(xv))
	w := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 5), G.WithName("w"), G.WithValue(wv))
	h := opstest.Must(t)(Apply(&matMul[float64]{}, x, w))
	s := opstest.Must(t)(StopGradient(h))
	loss := opstest.Must(t)(G.Sum(opstest.Must(t)(G.HadamardProd(h, s))))
	if _, err := G.Grad(loss, x, w); err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.BindDualValues(x, w))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	out, dOut := h.Value(), opstest.RandDense(rng, 3, 5)
	calls := map[string]func() (G.Value, error){}
	fwdArgs, bwdArgs, sArgs := []G.Value{xv, wv}, []G.Value{xv, wv, out, dOut}, []G.Value{out}
	for _, n := range g.AllNodes() {
		switch op := n.Op().(type) {
		case *fusedOp:
			calls["forward"] = func() (G.Value, error) { return op.Do(fwdArgs...) }
		case *backwardOp:
			calls["backward"] = func() (G.Value, error) { return op.Do(bwdArgs...) }
		case *pickOp:
			calls["pick"] = func() (G.Value, error) { return op.Do(out) }
		case *stopGradOp:
			calls["stop"] = func() (G.Value, error) { return op.Do(sArgs...) }
		}
	}
	if len(calls) != 4 {
		t.Fatalf("found ops %v, want forward, backward, pick and stop", calls)
	}
	for name, f := range calls {
		if a := testing.AllocsPerRun(10, func() {
			if _, err := f(); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}

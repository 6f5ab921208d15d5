package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops"
	"spg-tui/agent/ops/layers"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/cuda/gpulayers"
)

// mse is agent/learn/losses.go's mean((a - b)^2).
func mse(a, b *G.Node) *G.Node {
	return G.Must(G.Mean(G.Must(G.Square(G.Must(G.Sub(a, b))))))
}

// vec returns a float32 input vector node holding v.
func vec(g *G.ExprGraph, name string, v []float32) *G.Node {
	return G.NewVector(g, tensor.Float32, G.WithShape(len(v)), G.WithName(name),
		G.WithValue(tensor.New(tensor.WithShape(len(v)), tensor.WithBacking(append([]float32(nil), v...)))))
}

// cpuPolicy adds the CPU learner's policy over arch's actor: its scores X, then M =
// Sinkhorn(X / tau) in iters iterations.
func cpuPolicy(t *testing.T, arch nets.Arch, x *G.Node, p nets.NodeSet, tau float64, iters int) *G.Node {
	t.Helper()
	scores, err := arch.Actor(x, p)
	if err != nil {
		t.Fatal(err)
	}
	m, sk, err := layers.Sinkhorn(scores)
	if err != nil {
		t.Fatal(err)
	}
	sk.Set(tau, iters)
	return m
}

// runGraph differentiates loss with respect to wrt on a tape machine, as agent's learner does.
func runGraph(t *testing.T, g *G.ExprGraph, loss *G.Node, wrt ...*G.Node) {
	t.Helper()
	if _, err := G.Grad(loss, wrt...); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g, G.BindDualValues(wrt...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
}

// grad returns n's gradient after run.
func grad(t *testing.T, n *G.Node) []float32 {
	t.Helper()
	v, err := n.Grad()
	if err != nil {
		t.Fatal(err)
	}
	return v.Data().([]float32)
}

func TestCriticLoss(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(15, 16))
	for _, b := range []int{1, 7, 256, 300} {
		for _, w := range []float32{0, 1} {
			qHard, qSoft, r := emutest.Normals(rng, b, 1), emutest.Normals(rng, b, 1), emutest.Normals(rng, b, 1)
			// agent/learn/losses.go's graph, on gorgonia.
			g := G.NewGraph()
			qh, qs, rn := vec(g, "qh", qHard), vec(g, "qs", qSoft), vec(g, "r", r)
			wn := G.NewScalar(g, tensor.Float32, G.WithName("w"), G.WithValue(w))
			hard := mse(qh, rn)
			target, err := ops.StopGradient(qh)
			if err != nil {
				t.Fatal(err)
			}
			penalty := mse(qs, target)
			loss := G.Must(G.Add(hard, G.Must(G.Mul(wn, penalty))))
			runGraph(t, g, loss, qh, qs)

			out, dqh, dqs := emutest.Zeros(t, 3), emutest.Zeros(t, b), emutest.Zeros(t, b)
			if err := gpulayers.CriticLoss(dev, out, dqh, dqs, emutest.Upload(t, qHard), emutest.Upload(t, qSoft), emutest.Upload(t, r), b, w); err != nil {
				t.Fatal(err)
			}
			want := []float32{loss.Value().Data().(float32), hard.Value().Data().(float32), penalty.Value().Data().(float32)}
			emutest.Near(t, "loss, hard, penalty", emutest.Download(t, out), want, 1e-6)
			emutest.Near(t, "dqHard", emutest.Download(t, dqh), grad(t, qh), 1e-6)
			emutest.Near(t, "dqSoft", emutest.Download(t, dqs), grad(t, qs), 1e-6)
		}
	}
}

func TestActorLoss(t *testing.T) {
	dev := emutest.Device(t)
	rng := rand.New(rand.NewPCG(17, 18))
	for _, b := range []int{1, 7, 300} {
		q := emutest.Normals(rng, b, 1)
		g := G.NewGraph()
		qn := vec(g, "q", q)
		loss := G.Must(G.Neg(G.Must(G.Mean(qn))))
		runGraph(t, g, loss, qn)

		out, dq := emutest.Zeros(t, 1), emutest.Zeros(t, b)
		if err := gpulayers.ActorLoss(dev, out, dq, emutest.Upload(t, q), b); err != nil {
			t.Fatal(err)
		}
		emutest.Near(t, "loss", emutest.Download(t, out), []float32{loss.Value().Data().(float32)}, 1e-6)
		emutest.Near(t, "dq", emutest.Download(t, dq), grad(t, qn), 1e-6)
	}
	if err := gpulayers.ActorLoss(dev, emutest.Zeros(t, 1), emutest.Zeros(t, 2), emutest.Zeros(t, 3), 3); err == nil {
		t.Error("ActorLoss with a short dq: no error")
	}
}

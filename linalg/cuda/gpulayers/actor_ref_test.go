package gpulayers_test

import (
	"testing"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/run"
)

// testArch is model's architecture for task at n nodes and hidden width hid.
func testArch(t *testing.T, model string, task envs.Task, n, hid int) nets.Arch {
	t.Helper()
	arch, err := nets.New(run.Spec{Config: run.Config{Model: model, Task: task, N: n, Hidden: hid}, Facts: envs.MustFacts(task)})
	if err != nil {
		t.Fatal(err)
	}
	return arch
}

// actorRef is what an actor's layer-driver test compares with: the CPU graph's M and parameter
// gradients for the loss sum(M * dM), and the parameters uploaded to the device (p) beside
// zeroed buffers for the drivers' gradients (dp), by parameter name.
type actorRef struct {
	params *nets.Params
	m      []float32
	grads  [][]float32
	p, dp  map[string]cuda.Buf
}

// newActorRef runs arch's actor with params on the CPU graph at the batch of b states x, with
// Sinkhorn at temperature tau and iters iterations, and uploads params.
func newActorRef(t *testing.T, arch nets.Arch, params *nets.Params, x, dm []float32, b int, tau float64, iters int) actorRef {
	t.Helper()
	g := G.NewGraph()
	nodes, list := params.Nodes(g, "")
	shape := arch.StateShape(b)
	m := cpuPolicy(t, arch, tensor3(g, "x", x, shape[0], shape[1], shape[2]), nodes, tau, iters)
	mShape := m.Shape()
	runGraph(t, g, G.Must(G.Sum(G.Must(G.HadamardProd(m, tensor3(g, "dm", dm, mShape[0], mShape[1], mShape[2]))))), list...)
	ref := actorRef{params: params, m: m.Value().Data().([]float32), p: map[string]cuda.Buf{}, dp: map[string]cuda.Buf{}}
	for i, s := range params.Specs {
		ref.grads = append(ref.grads, grad(t, list[i]))
		ref.p[s.Name] = emutest.Upload(t, params.Vals[i].Float32s())
		ref.dp[s.Name] = emutest.Zeros(t, params.Vals[i].Shape().TotalSize())
	}
	return ref
}

// checkM compares the drivers' M on the device with the graph's.
func (r actorRef) checkM(t *testing.T, mb cuda.Buf) {
	t.Helper()
	emutest.Near(t, "M", emutest.Download(t, mb), r.m, 1e-5)
}

// checkGrads compares the drivers' gradients in dp with the graph's.
func (r actorRef) checkGrads(t *testing.T) {
	t.Helper()
	for i, s := range r.params.Specs {
		emutest.Near(t, "d"+s.Name, emutest.Download(t, r.dp[s.Name]), r.grads[i], 1e-4)
	}
}

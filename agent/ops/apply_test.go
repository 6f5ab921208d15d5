package ops

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/gradcheck"
	"spg-tui/agent/ops/internal/opstest"
)

// toyParams returns x (3,4), w1 (4,5), w2 (4,5) and y (3,5).
func toyParams(rng *rand.Rand) []gradcheck.Param {
	return []gradcheck.Param{
		{Name: "x", Value: opstest.RandDense(rng, 3, 4)},
		{Name: "w1", Value: opstest.RandDense(rng, 4, 5)},
		{Name: "w2", Value: opstest.RandDense(rng, 4, 5)},
		{Name: "y", Value: opstest.RandDense(rng, 3, 5)},
	}
}

// buildToy applies matMul twice with the shared input x, gate three times (once to one node
// twice, once to the output of another fused node), tanhK (whose backward reads its output) and
// mixes them with primitive ops.
func buildToy[T Float](_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
	x, w1, w2, y := p[0], p[1], p[2], p[3]
	h1, err := Apply(&matMul[T]{}, x, w1)
	if err != nil {
		return nil, err
	}
	h2, err := Apply(&matMul[T]{}, x, w2)
	if err != nil {
		return nil, err
	}
	g1, err := Apply(&gate[T]{}, h1, y)
	if err != nil {
		return nil, err
	}
	g2, err := Apply(&gate[T]{}, h2, h1)
	if err != nil {
		return nil, err
	}
	g3, err := Apply(&gate[T]{}, g1, g1)
	if err != nil {
		return nil, err
	}
	t2, err := Apply(&tanhK[T]{}, g2)
	if err != nil {
		return nil, err
	}
	a := G.Must(G.HadamardProd(G.Must(G.Tanh(g1)), t2))
	b := G.Must(G.Square(h2))
	return G.Add(G.Must(G.Add(G.Must(G.Sum(a)), G.Must(G.Sum(b)))), G.Must(G.Sum(g3)))
}

func TestApplyGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	params := toyParams(rng)
	c, err := gradcheck.New(params, buildToy[float64])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Every Check runs the same machine dozens of times; later rounds at new parameter values
	// show that forward state and the shared backward pass are redone on every run.
	for round := range 3 {
		res, err := c.Check(gradcheck.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d", round)
		opstest.CheckGrads(t, res, 1e-6)
		opstest.Perturb(rng, params, 0.5)
	}
	// Two runs at the same point give the same gradients: buffers are overwritten, not added to.
	l1, g1, err := c.Gradients()
	if err != nil {
		t.Fatal(err)
	}
	l2, g2, err := c.Gradients()
	if err != nil {
		t.Fatal(err)
	}
	if l1 != l2 {
		t.Errorf("loss changed between runs: %v, %v", l1, l2)
	}
	for i := range g1 {
		if !slices.Equal(g1[i], g2[i]) {
			t.Errorf("gradient of %s changed between runs", params[i].Name)
		}
	}
}

// A slice of a node is a view; the kernel opstest.Must still see the right contiguous elements.
func TestApplyToView(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	params := []gradcheck.Param{
		{Name: "x", Value: opstest.RandDense(rng, 4, 5)},
		{Name: "w", Value: opstest.RandDense(rng, 3, 2)},
	}
	build := func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		xs, err := G.Slice(p[0], G.S(1, 3), G.S(1, 4)) // (2,3), not contiguous
		if err != nil {
			return nil, err
		}
		h, err := Apply(&matMul[float64]{}, xs, p[1])
		if err != nil {
			return nil, err
		}
		return G.Sum(G.Must(G.Tanh(h)))
	}
	res, err := gradcheck.Check(params, build, gradcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opstest.CheckGrads(t, res, 1e-6)
}

// An input the kernel does not differentiate gets no gradient through the kernel: its gradient
// is what flows through the rest of the graph only.
func TestApplyNonDifferentiableInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	params := []gradcheck.Param{
		{Name: "x", Value: opstest.RandDense(rng, 3, 4)},
		{Name: "w", Value: opstest.RandDense(rng, 4, 2)},
	}
	build := func(_ *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		h, err := Apply(&matMul[float64]{frozen: [2]bool{false, true}}, p[0], p[1])
		if err != nil {
			return nil, err
		}
		// loss = Σ tanh(x·w) + Σ w²: with w frozen in the kernel, dloss/dw = 2w.
		return G.Add(G.Must(G.Sum(G.Must(G.Tanh(h)))), G.Must(G.Sum(G.Must(G.Square(p[1])))))
	}
	c, err := gradcheck.New(params, build)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Check(gradcheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opstest.CheckGrads(t, res[:1], 1e-6) // x: through the kernel
	_, grads, err := c.Gradients()
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range params[1].Value.Float64s() {
		if got := grads[1][i]; math.Abs(got-2*w) > 1e-12 {
			t.Errorf("dloss/dw[%d] = %v, want 2w = %v", i, got, 2*w)
		}
	}
	if res[1].MaxRelErr < 1e-3 {
		t.Errorf("w's gradient matches finite differences (%v), so the test cannot tell frozen from not", res[1])
	}

	// A parameter that reaches the loss only through a frozen input has no gradient at all.
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float64, G.WithShape(3, 4), G.WithName("x"), G.WithValue(params[0].Value))
	w := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 2), G.WithName("w"), G.WithValue(params[1].Value))
	h := opstest.Must(t)(Apply(&matMul[float64]{frozen: [2]bool{false, true}}, x, w))
	if _, err := G.Grad(opstest.Must(t)(G.Sum(h)), w); err == nil {
		t.Error("G.Grad with respect to an input reached only through a frozen input: no error")
	}
}

// Two applications of kernels with the same inputs opstest.Must stay two nodes.
func TestApplyNotMerged(t *testing.T) {
	g := G.NewGraph()
	xv := tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float64{1, 2, 3, 4, 5, 6}))
	x := G.NewMatrix(g, tensor.Float64, G.WithShape(2, 3), G.WithName("x"), G.WithValue(xv))
	a := opstest.Must(t)(Apply(&scale[float64]{c: 2}, x))
	b := opstest.Must(t)(Apply(&scale[float64]{c: 3}, x))
	if a == b {
		t.Fatal("two applications were merged into one node")
	}
	loss := opstest.Must(t)(G.Add(opstest.Must(t)(G.Sum(a)), opstest.Must(t)(G.Sum(b))))
	if _, err := G.Grad(loss, x); err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.BindDualValues(x))
	defer m.Close()
	if err := m.RunAll(); err != nil {
		t.Fatal(err)
	}
	if got := loss.Value().Data().(float64); got != 5*21 {
		t.Errorf("loss = %v, want %v", got, 5*21)
	}
	gv, err := x.Grad()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range gv.Data().([]float64) {
		if v != 5 {
			t.Errorf("dloss/dx[%d] = %v, want 5", i, v)
		}
	}
}

// The networks train in float32: the same graph in float32 opstest.Must agree with float64 (whose
// gradients TestApplyGradients checks against finite differences) to float32 precision.
func TestApplyFloat32(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	params := toyParams(rng)
	c, err := gradcheck.New(params, buildToy[float64])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want, wantGrads, err := c.Gradients()
	if err != nil {
		t.Fatal(err)
	}

	g := G.NewGraph()
	nodes := make([]*G.Node, len(params))
	for i, p := range params {
		v := tensor.New(tensor.WithShape(p.Value.Shape()...), tensor.Of(tensor.Float32))
		for j, x := range p.Value.Float64s() {
			v.Float32s()[j] = float32(x)
		}
		nodes[i] = G.NewMatrix(g, tensor.Float32, G.WithShape(p.Value.Shape()...), G.WithName(p.Name), G.WithValue(v))
	}
	loss := opstest.Must(t)(buildToy[float32](g, nodes))
	if _, err := G.Grad(loss, nodes...); err != nil {
		t.Fatal(err)
	}
	m := G.NewTapeMachine(g, G.BindDualValues(nodes...))
	defer m.Close()
	for run := range 3 {
		m.Reset()
		if err := m.RunAll(); err != nil {
			t.Fatal(err)
		}
		got := loss.Value().Data().(float32)
		if math.Abs(float64(got)-want) > 1e-5*max(1, math.Abs(want)) {
			t.Errorf("run %d: float32 loss %v, float64 loss %v", run, got, want)
		}
		for i, n := range nodes {
			gv, err := n.Grad()
			if err != nil {
				t.Fatal(err)
			}
			d := gv.(*tensor.Dense)
			for j, v := range d.Float32s() {
				if w := wantGrads[i][j]; math.Abs(float64(v)-w) > 1e-4*max(1, math.Abs(w)) {
					t.Errorf("run %d: d/d%s[%d]: float32 %v, float64 %v", run, params[i].Name, j, v, w)
				}
			}
			d.Zero() // the machine adds into gradients on every run
		}
	}
}

func TestApplyErrors(t *testing.T) {
	g := G.NewGraph()
	x := G.NewMatrix(g, tensor.Float64, G.WithShape(2, 3), G.WithName("x"))
	w := G.NewMatrix(g, tensor.Float64, G.WithShape(4, 3), G.WithName("w"))
	x32 := G.NewMatrix(g, tensor.Float32, G.WithShape(3, 2), G.WithName("x32"))
	s := G.NewScalar(g, tensor.Float64, G.WithName("s"))
	xi := G.NewMatrix(g, tensor.Int, G.WithShape(3, 2), G.WithName("xi"))
	for name, in := range map[string][]*G.Node{
		"no inputs":    nil,
		"bad shapes":   {x, w},
		"mixed dtypes": {x, x32},
		"scalar":       {s, x},
		"int":          {xi, xi},
		"nil":          {x, nil},
	} {
		if _, err := Apply(&matMul[float64]{}, in...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A kernel panic opstest.Must come back from RunAll as an error: the machine runs ops on a goroutine of
// its own, where a panic would end the program.
func TestApplyKernelPanic(t *testing.T) {
	for _, where := range []string{"forward", "backward"} {
		g := G.NewGraph()
		x := G.NewMatrix(g, tensor.Float64, G.WithShape(2, 2), G.WithName("x"), G.WithValue(tensor.New(tensor.WithShape(2, 2), tensor.Of(tensor.Float64))))
		y := opstest.Must(t)(Apply(&panicky{where: where}, x))
		if _, err := G.Grad(opstest.Must(t)(G.Sum(y)), x); err != nil {
			t.Fatal(err)
		}
		m := G.NewTapeMachine(g)
		if err := m.RunAll(); err == nil || !strings.Contains(err.Error(), where+" bug") {
			t.Errorf("%s: RunAll error %v, want the panic", where, err)
		}
		m.Close()
	}
}

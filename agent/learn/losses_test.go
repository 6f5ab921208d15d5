package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/agent/ops/gradcheck"
	"spg-tui/envs"
	"spg-tui/run"
)

// Gradient checks of the whole losses in float64 at toy sizes, against central differences.

// checkSizes are the toy sizes of the loss checks.
const checkB, checkN, checkH = 4, 4, 6

// randParams returns float64 parameters initialised as in training and then perturbed, so that
// batch-norm gammas and betas are not exactly 1 and 0.
func randParams(specs []nets.ParamSpec, rng *rand.Rand) *nets.Params {
	p := nets.NewParams(specs, tensor.Float64, rng)
	for _, v := range p.Vals {
		for i := range v.Float64s() {
			v.Float64s()[i] += 0.2 * (2*rng.Float64() - 1)
		}
	}
	return p
}

// asGradParams exposes p to gradcheck under the specs' names.
func asGradParams(p *nets.Params) []gradcheck.Param {
	gp := make([]gradcheck.Param, len(p.Vals))
	for i, v := range p.Vals {
		gp[i] = gradcheck.Param{Name: p.Specs[i].Name, Value: v}
	}
	return gp
}

// nodeSetOf names the nodes gradcheck made for p.
func nodeSetOf(p *nets.Params, nodes []*G.Node) nets.NodeSet {
	s := make(nets.NodeSet, len(nodes))
	for i, n := range nodes {
		s[p.Specs[i].Name] = n
	}
	return s
}

// constant adds a float64 input node holding v.
func constant(g *G.ExprGraph, v *tensor.Dense, name string) *G.Node {
	return G.NewTensor(g, tensor.Float64, v.Dims(), G.WithShape(v.Shape()...), G.WithName(name), G.WithValue(v))
}

// policyAt adds the learner's policy M = Sinkhorn(X / tau) (addPolicy) over a's actor with its
// layer set to tau and iters.
func policyAt(a nets.Arch, x *G.Node, p nets.NodeSet, tau float64, iters int) (*G.Node, error) {
	m, sk, err := addPolicy(a, x, p)
	if err != nil {
		return nil, err
	}
	sk.Set(tau, iters)
	return m, nil
}

// toyBatch is a float64 minibatch: states uniform in the unit square (sort: values 0..N-1 as
// the raw features), P random permutation matrices, M random positive matrices with unit
// column sums, rewards uniform.
type toyBatch struct{ x, p, m, r *tensor.Dense }

func newToyBatch(a nets.Arch, task envs.Task, b, n int, rng *rand.Rand) toyBatch {
	x := tensor.New(tensor.WithShape(a.StateShape(b)...), tensor.Of(tensor.Float64))
	for i := range x.Float64s() {
		if task == envs.TaskSort {
			x.Float64s()[i] = float64(rng.IntN(n))
		} else {
			x.Float64s()[i] = rng.Float64()
		}
	}
	p := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	m := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	r := tensor.New(tensor.WithShape(b), tensor.Of(tensor.Float64))
	for k := range b {
		for i, j := range rng.Perm(n) {
			p.Float64s()[(k*n+i)*n+j] = 1
		}
		for j := range n {
			var s float64
			col := make([]float64, n)
			for i := range col {
				col[i] = rng.Float64() + 0.01
				s += col[i]
			}
			for i := range col {
				m.Float64s()[(k*n+i)*n+j] = col[i] / s
			}
		}
		r.Float64s()[k] = rng.Float64()
	}
	return toyBatch{x, p, m, r}
}

// nodes adds the batch as constants.
func (tb toyBatch) Nodes(g *G.ExprGraph) (x, p, m, r *G.Node) {
	return constant(g, tb.x, "x"), constant(g, tb.p, "P"), constant(g, tb.m, "M"), constant(g, tb.r, "r")
}

// checkResults fails t for any parameter whose gradient is off by more than tol.
func checkResults(t *testing.T, res []gradcheck.Result, tol float64) {
	t.Helper()
	worst := res[0]
	for _, r := range res {
		if r.Checked == 0 || !(r.MaxRelErr <= tol) {
			t.Errorf("%v (tolerance %g)", r, tol)
		}
		if r.MaxRelErr > worst.MaxRelErr {
			worst = r
		}
	}
	t.Logf("worst: %v", worst)
}

var lossTasks = []envs.Task{envs.TaskMWM, envs.TaskTSP, envs.TaskSort}

// The whole critic loss, with the penalty switched on and off, for every critic parameter. The
// stop-gradient makes the loss's gradient differ from its derivative, so the reference is the
// derivative of the surrogate in which Q(s,P) inside the penalty is the constant it had:
// MSE(r, Q(s,P)) + w MSE(c, Q(s,M)), checked against central differences; the learner's
// graph must give the surrogate's gradient.
func TestCriticLossGradients(t *testing.T) {
	for _, task := range lossTasks {
		for _, w := range []float64{1, 0} {
			rng := rand.New(rand.NewPCG(51, uint64(len(task))))
			a := paperArch(t, task, checkN, checkH)
			cp := randParams(a.CriticSpecs(), rng)
			tb := newToyBatch(a, task, checkB, checkN, rng)
			n := checkCriticLoss(t, a, cp, tb, w)
			t.Logf("%s, penalty weight %v: %d tensors checked", task, w, n)
		}
	}
}

// checkCriticLoss checks the gradient of arch a's critic loss at penalty weight w on the toy
// batch tb against central differences of the stop-gradient surrogate MSE(r, Q(s,P)) +
// w MSE(c, Q(s,M)), c the constant Q(s,P) had, and that the learner's graph gives the
// surrogate's gradient. It returns the number of tensors checked.
func checkCriticLoss(t *testing.T, a nets.Arch, cp *nets.Params, tb toyBatch, w float64) int {
	t.Helper()
	var qHard G.Value
	graph, err := gradcheck.New(asGradParams(cp), func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
		x, p, m, r := tb.Nodes(g)
		wn := G.NewScalar(g, tensor.Float64, G.WithName("w"), G.WithValue(w))
		l, err := addCriticLoss(a, nodeSetOf(cp, nodes), x, p, m, r, wn)
		if err != nil {
			return nil, err
		}
		G.Read(l.qHard, &qHard)
		return l.loss, nil
	})
	if err != nil {
		t.Fatalf("penalty weight %v: %v", w, err)
	}
	_, got, err := graph.Gradients()
	graph.Close()
	if err != nil {
		t.Fatal(err)
	}
	c := tensor.New(tensor.WithShape(checkB), tensor.WithBacking(append([]float64(nil), qHard.Data().([]float64)...)))

	surrogate, err := gradcheck.New(asGradParams(cp), func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
		x, p, m, r := tb.Nodes(g)
		qs, err := a.Critic(&nets.CriticCtx{P: nodeSetOf(cp, nodes)}, x, []*G.Node{p, m})
		if err != nil {
			return nil, err
		}
		hard := G.Must(mse(qs[0], r))
		pen := G.Must(mse(qs[1], constant(g, c, "c")))
		return G.Add(hard, G.Must(G.Mul(G.NewConstant(w, G.WithName("w")), pen)))
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := surrogate.Check(gradcheck.Options{MaxElems: 12, Seed: 1, Floor: diffFloor})
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, res, 1e-5)
	_, want, err := surrogate.Gradients()
	surrogate.Close()
	if err != nil {
		t.Fatal(err)
	}
	compareGrads(t, cp, got, want)
	return len(res)
}

// compareGrads fails t unless got and want agree to rounding.
func compareGrads(t *testing.T, p *nets.Params, got, want [][]float64) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if d := math.Abs(got[i][j] - want[i][j]); d > 1e-9*max(1, math.Abs(want[i][j])) {
				t.Fatalf("%s[%d]: gradient %v, want %v", p.Specs[i].Name, j, got[i][j], want[i][j])
			}
		}
	}
}

// The actor loss -mean Q(s, actor(s)) through the critic, for every actor parameter.
func TestActorLossGradients(t *testing.T) {
	for _, task := range lossTasks {
		rng := rand.New(rand.NewPCG(52, uint64(len(task))))
		a := paperArch(t, task, checkN, checkH)
		ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
		tb := newToyBatch(a, task, checkB, checkN, rng)
		n := checkActorLoss(t, a, ap, cp, tb, 1e-5)
		t.Logf("%s: %d tensors checked", task, n)
	}
}

// checkActorLoss checks the gradient of arch a's actor loss -mean Q(s, actor(s)) (tau 0.3, L = 4)
// through the critic cp, on the toy batch's states, for every actor parameter of ap against
// central differences at relative tolerance tol. It returns the number of tensors checked.
func checkActorLoss(t *testing.T, a nets.Arch, ap, cp *nets.Params, tb toyBatch, tol float64) int {
	t.Helper()
	res, err := gradcheck.Check(asGradParams(ap), func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
		critic := make(nets.NodeSet)
		for i, s := range cp.Specs {
			critic[s.Name] = constant(g, cp.Vals[i], "critic."+s.Name)
		}
		l, err := addActorLoss(a, nodeSetOf(ap, nodes), critic, constant(g, tb.x, "x"), false, false)
		if err != nil {
			return nil, err
		}
		l.sk.Set(0.3, 4)
		return l.loss, nil
	}, gradcheck.Options{MaxElems: 12, Seed: 2, Floor: diffFloor})
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, res, tol)
	return len(res)
}

// diffFloor is the floor of the relative error's denominator in the loss checks. A central
// difference of step h on a loss L rounds to about eps |L| / h = 1e-16 * 10 / 1e-5 = 1e-10,
// so a gradient near 1e-6 cannot be checked to 1e-5 relative: in CI's .ci/run the numeric
// estimates moved by 2-5e-11 (the critic's emb.W, SPG+Attention's p2.W, SPG+Successor's p2.b,
// each analytic gradient below 5e-6) and failed at 1.02-1.19e-5, while runs by hand of the same
// commit passed at 0.65e-5. Measured against 1e-5, such rounding reads as at most 5e-6.
const diffFloor = 1e-5

// The penalty's gradient is that of MSE(c, Q(s,M)) with c the constant value of Q(s,P): no
// gradient flows through Q(s,P). Without the stop-gradient it would differ.
func TestPenaltyStopsGradient(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP} {
		rng := rand.New(rand.NewPCG(53, uint64(len(task))))
		a := paperArch(t, task, checkN, checkH)
		cp := randParams(a.CriticSpecs(), rng)
		tb := newToyBatch(a, task, checkB, checkN, rng)
		var qHard G.Value
		penalty, err := gradcheck.New(asGradParams(cp), func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
			x, p, m, r := tb.Nodes(g)
			wn := G.NewScalar(g, tensor.Float64, G.WithName("w"), G.WithValue(1.0))
			l, err := addCriticLoss(a, nodeSetOf(cp, nodes), x, p, m, r, wn)
			if err != nil {
				return nil, err
			}
			G.Read(l.qHard, &qHard)
			return l.penalty, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := penalty.Gradients()
		penalty.Close()
		if err != nil {
			t.Fatal(err)
		}
		target := tensor.New(tensor.WithShape(checkB), tensor.WithBacking(append([]float64(nil), qHard.Data().([]float64)...)))

		// The same penalty with Q(s,P) a constant (fixed) or live (no stop-gradient).
		build := func(live bool) gradcheck.Build {
			return func(g *G.ExprGraph, nodes []*G.Node) (*G.Node, error) {
				x, p, m, _ := tb.Nodes(g)
				acts := []*G.Node{m}
				if live {
					acts = append(acts, p)
				}
				qs, err := a.Critic(&nets.CriticCtx{P: nodeSetOf(cp, nodes)}, x, acts)
				if err != nil {
					return nil, err
				}
				if live {
					return mse(qs[0], qs[1])
				}
				return mse(qs[0], constant(g, target, "target"))
			}
		}
		fixed, err := gradcheck.New(asGradParams(cp), build(false))
		if err != nil {
			t.Fatal(err)
		}
		res, err := fixed.Check(gradcheck.Options{MaxElems: 8, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		checkResults(t, res, 1e-5)
		_, want, err := fixed.Gradients()
		fixed.Close()
		if err != nil {
			t.Fatal(err)
		}
		liveChecker, err := gradcheck.New(asGradParams(cp), build(true))
		if err != nil {
			t.Fatal(err)
		}
		_, live, err := liveChecker.Gradients()
		liveChecker.Close()
		if err != nil {
			t.Fatal(err)
		}
		var differs bool
		for i := range want {
			for j := range want[i] {
				differs = differs || math.Abs(live[i][j]-want[i][j]) > 1e-3*max(1e-3, math.Abs(want[i][j]))
			}
		}
		if !differs {
			t.Errorf("%s: the penalty's gradient does not depend on the stop-gradient; the test cannot tell", task)
		}
		compareGrads(t, cp, got, want)
	}
}

// paperArch is the architecture of task's default model.
func paperArch(t *testing.T, task envs.Task, n, h int) nets.Arch {
	t.Helper()
	return testArch(t, run.DefaultModel(task), task, n, h)
}

// testArch is model's architecture for task at size n, hidden width h.
func testArch(t *testing.T, model string, task envs.Task, n, h int) nets.Arch {
	t.Helper()
	a, err := nets.New(run.Spec{Config: run.Config{Model: model, Task: task, N: n, Hidden: h}, Facts: envs.MustFacts(task)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

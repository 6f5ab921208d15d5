package learn

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/run"
)

// torchStep is testdata/torch-spg-step.json, written by testdata/torch_spg_step.py: PyTorch's
// losses, gradients and one full step of SPG+Matching on one small batch.
type torchStep struct {
	N             int                  `json:"n"`
	Hidden        int                  `json:"hidden"`
	Batch         int                  `json:"batch"`
	Tau           float64              `json:"tau"`
	SinkhornIters int                  `json:"sinkhorn_iters"`
	ActorLR       float64              `json:"actor_lr"`
	CriticLR      float64              `json:"critic_lr"`
	Actor         map[string][]float32 `json:"actor"`
	Critic        map[string][]float32 `json:"critic"`
	States        []float32            `json:"states"`
	P, M, R       []float32
	CriticPenalty torchLoss `json:"critic_penalty"`
	CriticPlain   torchLoss `json:"critic_no_penalty"`
	ActorLoss     torchLoss `json:"actor_loss"`
	AfterStep     struct {
		Actor  map[string][]float32 `json:"actor"`
		Critic map[string][]float32 `json:"critic"`
	} `json:"after_step"`
}

type torchLoss struct {
	Loss, Hard, Penalty float64
	Grads               map[string][]float32
}

// loadTorchStep reads the fixture and builds a learner holding its initial weights.
func loadTorchStep(t *testing.T) (*torchStep, *spgLearner) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "torch-spg-step.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx torchStep
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	cfg := run.DefaultConfig(envs.TaskMWM, fx.N)
	cfg.Hidden, cfg.Batch, cfg.Buffer = fx.Hidden, fx.Batch, fx.Batch
	cfg.Tau, cfg.SinkhornIters = fx.Tau, fx.SinkhornIters
	l := newTestLearner(t, cfg)
	setParams(t, l.actor, fx.Actor)
	setParams(t, l.critic, fx.Critic)
	return &fx, l
}

// setParams copies named values into p, which must name exactly the same tensors.
func setParams(t *testing.T, p *nets.Params, vals map[string][]float32) {
	t.Helper()
	if len(vals) != len(p.Specs) {
		t.Fatalf("fixture has %d tensors, the network %d", len(vals), len(p.Specs))
	}
	for i, s := range p.Specs {
		v, ok := vals[s.Name]
		if !ok || len(v) != len(p.Vals[i].Float32s()) {
			t.Fatalf("fixture tensor %s: %d values, want %d", s.Name, len(v), len(p.Vals[i].Float32s()))
		}
		copy(p.Vals[i].Float32s(), v)
	}
}

// closeArrays checks got against want elementwise: |got - want| <= rel * max|want| + abs.
func closeArrays(t *testing.T, what string, got, want []float32, rel, abs float64) {
	t.Helper()
	scale, worst := 0.0, 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(float64(w)))
	}
	for i := range want {
		worst = math.Max(worst, math.Abs(float64(got[i])-float64(want[i])))
	}
	if worst > rel*scale+abs {
		t.Errorf("%s: max |ours - torch| = %.3g (torch's max |x| %.3g)", what, worst, scale)
	}
}

// closeValue checks a scalar to a relative tolerance.
func closeValue(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want)+1e-7 {
		t.Errorf("%s = %.8g, torch %.8g", what, got, want)
	}
}

// TestLearnerMatchesPyTorch checks SPG+Matching's training ingredients against an independent
// PyTorch implementation on the same weights and batch: the critic loss with and without the
// penalty and its gradients, the actor loss through the critic (training-mode batch norm) and
// its gradients, and one full update (critic Adam step with clipping, then the actor's through
// the updated critic), to float32 tolerance.
func TestLearnerMatchesPyTorch(t *testing.T) {
	fx, l := loadTorchStep(t)
	c := l.crit
	copy(c.x.Float32s(), fx.States)
	copy(c.p.Float32s(), fx.P)
	copy(c.m.Float32s(), fx.M)
	copy(c.r.Float32s(), fx.R)
	for _, tc := range []struct {
		name string
		w    float32
		want torchLoss
	}{{"penalty", 1, fx.CriticPenalty}, {"no penalty", 0, fx.CriticPlain}} {
		*c.w = G.F32(tc.w)
		if err := runGraph(c.vm); err != nil {
			t.Fatal(err)
		}
		loss, _ := scalarValue(*c.lossV)
		hard, _ := scalarValue(*c.hardV)
		pen, _ := scalarValue(*c.penV)
		closeValue(t, "critic loss ("+tc.name+")", loss, tc.want.Loss, 1e-5)
		closeValue(t, "critic hard loss ("+tc.name+")", hard, tc.want.Hard, 1e-5)
		closeValue(t, "critic penalty ("+tc.name+")", pen, tc.want.Penalty, 1e-4)
		grads, err := gradients(c.wrt)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range l.critic.Specs {
			closeArrays(t, "critic gradient "+s.Name+" ("+tc.name+")", grads[i], tc.want.Grads[s.Name], 1e-4, 1e-7)
		}
		zeroGrads(c.wrt)
	}

	a := l.pol
	setSinkhorn(a.loss.sk, Hyper{Tau: fx.Tau, SinkhornIters: fx.SinkhornIters})
	if err := runGraph(a.vm); err != nil {
		t.Fatal(err)
	}
	loss, _ := scalarValue(*a.lossV)
	closeValue(t, "actor loss", loss, fx.ActorLoss.Loss, 1e-5)
	grads, err := gradients(a.wrt)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range l.actor.Specs {
		closeArrays(t, "actor gradient "+s.Name, grads[i], fx.ActorLoss.Grads[s.Name], 1e-4, 1e-8)
	}
	zeroGrads(a.wrt)

	// One full update from the same start.
	_, l = loadTorchStep(t)
	batch := &Minibatch{B: fx.Batch, States: fx.States, P: fx.P, M: fx.M, Reward: fx.R}
	h := Hyper{Tau: fx.Tau, SinkhornIters: fx.SinkhornIters, ActorLR: fx.ActorLR, CriticLR: fx.CriticLR, CriticPenalty: true, ClipNorm: l.cfg.ClipNorm}
	if _, err := l.Update(batch, h); err != nil {
		t.Fatal(err)
	}
	// Adam's first step moves every weight by about lr, whatever its gradient's size, so the
	// tolerance is a small part of lr.
	for i, s := range l.critic.Specs {
		closeArrays(t, "critic after one step "+s.Name, l.critic.Vals[i].Float32s(), fx.AfterStep.Critic[s.Name], 0, 1e-3*fx.CriticLR)
	}
	// The actor's output bias adds a constant to each column of the logits, which Sinkhorn's
	// column normalisation all but cancels: its gradient is float noise (about 1e-8 in both),
	// so Adam's step on it is +-lr either way, and only that bound is checked.
	for i, s := range l.actor.Specs {
		tol := 1e-3 * fx.ActorLR
		if s.Name == "out.b" {
			tol = 2 * fx.ActorLR
		}
		closeArrays(t, "actor after one step "+s.Name, l.actor.Vals[i].Float32s(), fx.AfterStep.Actor[s.Name], 0, tol)
	}
}

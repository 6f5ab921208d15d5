package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// Tests of the float32 learner at toy sizes.

// newToyLearner returns a learner for cfg or fails t.
func newToyLearner(t testing.TB, cfg run.Config) *spgLearner {
	t.Helper()
	l, err := NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.(*spgLearner)
}

// toyHyper are the defaults of cfg with higher learning rates, so that steps change things.
func toyHyper(cfg run.Config) Hyper {
	return Hyper{Tau: cfg.Tau, SinkhornIters: cfg.SinkhornIters, ActorLR: 1e-3, CriticLR: 1e-3, CriticPenalty: true, ClipNorm: cfg.ClipNorm}
}

// actBatch acts on b fresh states and returns a minibatch of them with rounded actions and
// random rewards, as the trainer builds one.
func actBatch(t testing.TB, l *spgLearner, rng *rand.Rand, h Hyper) *Minibatch {
	t.Helper()
	states, p, m, reward := devtest.ActedBatch(t, l.cfg.Task, l.cfg.N, l.b, rng, func(states, m []float32) error { return l.Act(states, l.b, h, m) })
	return &Minibatch{B: l.b, States: states, P: p, M: m, Reward: reward}
}

// Two learners from the same seed act and learn bit-identically; another seed differs.
func TestLearnerDeterminism(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP} {
		cfg := devtest.ToyConfig(task, 4, 5, 8)
		l1, l2 := newToyLearner(t, cfg), newToyLearner(t, cfg)
		cfg.Seed++
		l3 := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
		for step := range 3 {
			b1, b2 := actBatch(t, l1, r1, h), actBatch(t, l2, r2, h)
			if !slices.Equal(b1.M, b2.M) {
				t.Fatalf("%s step %d: M differs between learners of one seed", task, step)
			}
			s1, err1 := l1.Update(b1, h)
			s2, err2 := l2.Update(b2, h)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if s1 != s2 {
				t.Fatalf("%s step %d: stats %+v and %+v differ", task, step, s1, s2)
			}
			if step == 0 {
				m3 := make([]float32, len(b1.M))
				if err := l3.Act(b1.States, l3.b, h, m3); err != nil {
					t.Fatal(err)
				}
				if slices.Equal(m3, b1.M) {
					t.Errorf("%s: seeds %d and %d give the same M", task, cfg.Seed-1, cfg.Seed)
				}
			}
		}
	}
}

// A learner restored from MarshalBinary continues exactly as the original: parameters, running
// statistics and both Adams' states round-trip.
func TestLearnerMarshalRoundTrip(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskSort} {
		cfg := devtest.ToyConfig(task, 4, 5, 8)
		l := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		rng := rand.New(rand.NewPCG(2, 2))
		for range 2 {
			if _, err := l.Update(actBatch(t, l, rng, h), h); err != nil {
				t.Fatal(err)
			}
		}
		data, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Seed++ // the restored learner starts from other parameters
		r := newToyLearner(t, cfg)
		if err := r.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		batch := actBatch(t, l, rng, h)
		want, err := l.Update(batch, h)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Update(batch, h)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s: after restore, stats %+v, want %+v", task, got, want)
		}
		a, _ := l.MarshalBinary()
		b, _ := r.MarshalBinary()
		if !slices.Equal(a, b) {
			t.Fatalf("%s: states differ after one more update", task)
		}
	}
}

// UnmarshalBinary refuses data for another model or damaged data, leaving the learner as it was.
func TestLearnerUnmarshalErrors(t *testing.T) {
	cfg := devtest.ToyConfig(envs.TaskMWM, 4, 3, 8)
	l := newToyLearner(t, cfg)
	before, _ := l.MarshalBinary()
	other := newToyLearner(t, devtest.ToyConfig(envs.TaskMWM, 5, 3, 8))
	otherData, _ := other.MarshalBinary()
	seq := newToyLearner(t, devtest.ToyConfig(envs.TaskTSP, 4, 3, 8))
	seqData, _ := seq.MarshalBinary()
	for name, data := range map[string][]byte{
		"other n":    otherData,
		"other task": seqData,
		"truncated":  before[:len(before)-3],
		"extra":      append(slices.Clone(before), 0),
		"garbage":    []byte("not a learner"),
	} {
		if err := l.UnmarshalBinary(data); err == nil {
			t.Errorf("%s: UnmarshalBinary succeeded", name)
		}
		if after, _ := l.MarshalBinary(); !slices.Equal(after, before) {
			t.Fatalf("%s: a failed UnmarshalBinary changed the learner", name)
		}
	}
}

// Act and Q give each state the same result whatever the number of states and chunking: the
// last chunk's padding does not leak into real rows.
func TestLearnerChunking(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP} {
		cfg := devtest.ToyConfig(task, 4, 3, 8)
		l := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		rng := rand.New(rand.NewPCG(3, 3))
		if _, err := l.Update(actBatch(t, l, rng, h), h); err != nil { // running stats move
			t.Fatal(err)
		}
		const b = 7 // two full chunks of 3 and one of 1
		n, sl, nn := cfg.N, envs.MustFacts(task).StateLen(cfg.N), cfg.N*cfg.N
		states := devtest.ToyStates(task, n, b, rng)
		m := make([]float32, b*nn)
		if err := l.Act(states, b, h, m); err != nil {
			t.Fatal(err)
		}
		p := make([]float32, b*nn)
		for k := range b {
			for i, j := range rng.Perm(n) {
				p[k*nn+i*n+j] = 1
			}
		}
		qh, qs := make([]float32, b), make([]float32, b)
		if err := l.Q(states, p, m, b, qh, qs); err != nil {
			t.Fatal(err)
		}
		for k := range b {
			one := make([]float32, nn)
			if err := l.Act(states[k*sl:(k+1)*sl], 1, h, one); err != nil {
				t.Fatal(err)
			}
			for i := range one {
				if d := math.Abs(float64(one[i] - m[k*nn+i])); d > 1e-6 {
					t.Fatalf("%s: state %d: M[%d] = %v alone, %v among %d", task, k, i, one[i], m[k*nn+i], b)
				}
			}
			q1, q2 := make([]float32, 1), make([]float32, 1)
			if err := l.Q(states[k*sl:(k+1)*sl], p[k*nn:(k+1)*nn], m[k*nn:(k+1)*nn], 1, q1, q2); err != nil {
				t.Fatal(err)
			}
			if math.Abs(float64(q1[0]-qh[k])) > 1e-5 || math.Abs(float64(q2[0]-qs[k])) > 1e-5 {
				t.Fatalf("%s: state %d: Q = (%v, %v) alone, (%v, %v) among %d", task, k, q1[0], q2[0], qh[k], qs[k], b)
			}
		}
	}
}

// A NaN in the states gives errors, not panics, and leaves the learner unchanged.
func TestLearnerNonFinite(t *testing.T) {
	cfg := devtest.ToyConfig(envs.TaskMWM, 4, 3, 8)
	l := newToyLearner(t, cfg)
	h := toyHyper(cfg)
	rng := rand.New(rand.NewPCG(4, 4))
	batch := actBatch(t, l, rng, h)
	before, _ := l.MarshalBinary()
	bad := *batch
	bad.States = slices.Clone(batch.States)
	bad.States[1] = float32(math.NaN())
	m := make([]float32, len(batch.M))
	if err := l.Act(bad.States, bad.B, h, m); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Errorf("Act on a NaN state: error %v, want a non-finite error", err)
	}
	if _, err := l.Update(&bad, h); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Errorf("Update on a NaN state: error %v, want a non-finite error", err)
	}
	q := make([]float32, bad.B)
	if err := l.Q(bad.States, batch.P, batch.M, bad.B, q, slices.Clone(q)); err == nil {
		t.Error("Q on a NaN state succeeded")
	}
	inf := *batch
	inf.Reward = slices.Clone(batch.Reward)
	inf.Reward[0] = float32(math.Inf(1))
	if _, err := l.Update(&inf, h); err == nil || !strings.Contains(err.Error(), "critic") {
		t.Errorf("Update with an infinite reward: error %v, want a non-finite critic error", err)
	}
	if after, _ := l.MarshalBinary(); !slices.Equal(after, before) {
		t.Error("failed updates changed the learner")
	}
	if _, err := l.Update(batch, h); err != nil {
		t.Errorf("a good update after failed ones: %v", err)
	}
}

// Update and Act refuse malformed input with errors.
func TestLearnerBadInput(t *testing.T) {
	cfg := devtest.ToyConfig(envs.TaskTSP, 4, 3, 8)
	l := newToyLearner(t, cfg)
	h := toyHyper(cfg)
	batch := actBatch(t, l, rand.New(rand.NewPCG(5, 5)), h)
	small := *batch
	small.B, small.Reward = 2, batch.Reward[:2]
	if _, err := l.Update(&small, h); err == nil {
		t.Error("Update accepted a batch of the wrong size")
	}
	for _, bad := range []Hyper{{Tau: 0.1, SinkhornIters: 1, ActorLR: math.NaN()}, {Tau: 0.1, SinkhornIters: 1, CriticLR: math.Inf(1)}} {
		if _, err := l.Update(batch, bad); err == nil {
			t.Errorf("Update accepted %+v", bad)
		}
		if err := l.Act(batch.States, batch.B, bad, batch.M); err == nil {
			t.Errorf("Act accepted %+v", bad)
		}
	}
	if err := l.Act(batch.States, 4, h, batch.M); err == nil {
		t.Error("Act accepted 4 states in a buffer of 3")
	}
}

// The penalty is reported whether or not it is trained on, and the critic loss is the hard
// loss plus the penalty only when it is on.
func TestLearnerPenaltySwitch(t *testing.T) {
	cfg := devtest.ToyConfig(envs.TaskMWM, 4, 4, 8)
	l := newToyLearner(t, cfg)
	h := toyHyper(cfg)
	batch := actBatch(t, l, rand.New(rand.NewPCG(6, 6)), h)
	for _, on := range []bool{false, true, false} {
		h.CriticPenalty = on
		s, err := l.Update(batch, h)
		if err != nil {
			t.Fatal(err)
		}
		want := s.CriticHard
		if on {
			want += s.CriticPenalty
		}
		if !(s.CriticPenalty > 0) || math.Abs(s.CriticLoss-want) > 1e-6*max(1, want) {
			t.Errorf("penalty %v: stats %+v", on, s)
		}
	}
}

// A few hundred critic-only updates on a fixed toy batch fit its rewards: the hard-Q MSE falls.
func TestCriticLearns(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskSort} {
		cfg := devtest.ToyConfig(task, 5, 16, 16)
		l := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		h.ActorLR = 0
		rng := rand.New(rand.NewPCG(8, 8))
		batch := actBatch(t, l, rng, h)
		first, err := l.Update(batch, h)
		if err != nil {
			t.Fatal(err)
		}
		var last StepStats
		for range 300 {
			if last, err = l.Update(batch, h); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: hard MSE %.4g -> %.4g", task, first.CriticHard, last.CriticHard)
		if !(last.CriticHard < first.CriticHard/10) {
			t.Errorf("%s: hard MSE %v -> %v after 300 critic updates, want a tenfold fall", task, first.CriticHard, last.CriticHard)
		}
	}
}

// Each critic update folds its batch statistics into every batch-norm layer in PyTorch's order
// (the whole critic on P, then on M, so the state-only layer twice), and only then: a failed
// update leaves the running statistics alone.
func TestLearnerRunningStats(t *testing.T) {
	for task, want := range map[envs.Task][]string{
		envs.TaskMWM: {"c", "d", "f", "c", "d", "f"},
		envs.TaskTSP: {"j", "k", "l", "j", "k", "l"},
	} {
		cfg := devtest.ToyConfig(task, 4, 3, 8)
		l := newToyLearner(t, cfg)
		var got []string
		for _, u := range l.crit.loss.uses {
			got = append(got, u.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: batch-norm updates in the order %v, want %v", task, got, want)
		}
		h := toyHyper(cfg)
		if _, err := l.Update(actBatch(t, l, rand.New(rand.NewPCG(10, 10)), h), h); err != nil {
			t.Fatal(err)
		}
		for i, s := range l.running.Specs {
			init := float32(0)
			if strings.HasSuffix(s.Name, ".var") {
				init = 1
			}
			if slices.ContainsFunc(l.running.Vals[i].Float32s(), func(v float32) bool { return v == init }) {
				t.Errorf("%s: running %s %v still holds its initial value after an update", task, s.Name, l.running.Vals[i].Float32s())
			}
		}
	}
}

// newTestLearner builds the real learner of cfg.
func newTestLearner(t *testing.T, cfg run.Config) *spgLearner {
	t.Helper()
	l, err := NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	return l.(*spgLearner)
}

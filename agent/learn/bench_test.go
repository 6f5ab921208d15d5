package learn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/internal/benchcpu"
	"spg-tui/linalg/assign"
	"spg-tui/linalg/backend"
	"spg-tui/run"
)

// BenchmarkStep times one training step of each model at the paper's sizes (B=128, H=128,
// float32) and of best's models at their own settings: Act on a fresh batch, Hungarian
// rounding, then Update (critic and actor) on that batch. It reports the GEMM rate from
// StepFLOPs. Run with -tags openblas and OPENBLAS_CORETYPE=SkylakeX (or Haswell) set, as the
// PyTorch peer is; SPG_TUI_GEMM=avx2 times the AVX2 kernel on an AVX-512 CPU.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		task   envs.Task
		n      int
		recipe string
		model  string // the recipe's when empty
	}{
		{envs.TaskMWM, 10, run.RecipePaper, ""}, {envs.TaskMWM, 20, run.RecipePaper, ""}, {envs.TaskMWM, 50, run.RecipePaper, ""},
		{envs.TaskTSP, 20, run.RecipePaper, ""}, {envs.TaskSort, 20, run.RecipePaper, ""},
		{envs.TaskMWM, 20, run.RecipeBest, ""}, {envs.TaskTSP, 20, run.RecipeBest, run.ModelFactored},
		{envs.TaskSort, 20, run.RecipeBest, ""}, {envs.TaskTSP, 20, run.RecipeBest, run.ModelSuccessor},
	} {
		cfg, err := run.WithRecipe(run.DefaultConfig(c.task, c.n), c.recipe)
		if err != nil {
			b.Fatal(err)
		}
		if c.model != "" {
			cfg.Model = c.model
		}
		b.Run(fmt.Sprintf("%s-%s-N%d", cfg.Model, c.task, c.n), func(b *testing.B) { benchStep(b, cfg) })
	}
}

func benchStep(b *testing.B, cfg run.Config) {
	task, n := cfg.Task, cfg.N
	l, err := NewLearner(*devtest.Spec(b, cfg), nil)
	if err != nil {
		b.Fatal(err)
	}
	bs, sl := cfg.Batch, envs.MustFacts(task).StateLen(n)
	rng := rand.New(rand.NewPCG(1, 2))
	batch := &Minibatch{B: bs, States: make([]float32, bs*sl), P: make([]float32, bs*n*n), M: make([]float32, bs*n*n), Reward: make([]float32, bs)}
	for i := range batch.States {
		batch.States[i] = rng.Float32()
	}
	for i := range batch.Reward {
		batch.Reward[i] = rng.Float32()
	}
	perms := make([]int, bs*n)
	h := Hyper{Tau: cfg.Tau, SinkhornIters: cfg.SinkhornIters, ActorLR: cfg.ActorLR, CriticLR: cfg.CriticLR, CriticPenalty: true, ClipNorm: cfg.ClipNorm}
	step := func() {
		if err := l.Act(batch.States, bs, h, batch.M); err != nil {
			b.Fatal(err)
		}
		if err := assign.RoundBatch(batch.M, bs, n, perms); err != nil {
			b.Fatal(err)
		}
		clear(batch.P)
		for k := range bs {
			for i, j := range perms[k*n : (k+1)*n] {
				batch.P[(k*n+i)*n+j] = 1
			}
		}
		if _, err := l.Update(batch, h); err != nil {
			b.Fatal(err)
		}
	}
	step() // first runs allocate the graphs' buffers
	b.ReportAllocs()
	cpu := benchcpu.Start()
	b.ResetTimer()
	for range b.N {
		step()
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(nets.StepFLOPs(*devtest.Spec(b, cfg))/sec/1e9, "GFLOP/s")
	cpu.Report(b)
	b.Logf("backend: %s", backend.Name())
}

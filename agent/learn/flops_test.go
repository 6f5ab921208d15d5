package learn

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/envs"
)

// countingBLAS counts the FLOPs of every float32 GEMM it forwards.
type countingBLAS struct {
	blas.Float32
	flops float64
}

func (c *countingBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, cc []float32, ldc int) {
	c.flops += 2 * float64(m) * float64(n) * float64(k)
	c.Float32.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, cc, ldc)
}

// StepFLOPs equals the GEMM FLOPs one training step (Act, then Update) actually runs.
func TestStepFLOPs(t *testing.T) {
	orig := blas32.Implementation()
	defer blas32.Use(orig)
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP, envs.TaskSort} {
		cfg := devtest.ToyConfig(task, 5, 4, 6)
		l := newToyLearner(t, cfg)
		h := toyHyper(cfg)
		rng := rand.New(rand.NewPCG(9, 9))
		batch := actBatch(t, l, rng, h)
		c := &countingBLAS{Float32: orig}
		blas32.Use(c)
		if err := l.Act(batch.States, batch.B, h, batch.M); err != nil {
			t.Fatal(err)
		}
		if _, err := l.Update(batch, h); err != nil {
			t.Fatal(err)
		}
		blas32.Use(orig)
		if want := nets.StepFLOPs(*devtest.Spec(t, cfg)); c.flops != want {
			t.Errorf("%s: a step ran %v GEMM FLOPs, StepFLOPs says %v", task, c.flops, want)
		}
	}
}

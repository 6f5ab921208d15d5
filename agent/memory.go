package agent

import (
	"fmt"
	"math"

	"spg-tui/agent/eval"
	"spg-tui/agent/ops/pairops"
	"spg-tui/agent/replay"
	"spg-tui/run"
	"spg-tui/sysmem"
)

// Memory model of a run, in bytes. The learner's share was fitted to the peak RSS of `spg-tui
// bench` (MWM, n = 20 and 50, batch 128 and 512, L = 10: about 190 B per B·N² entry and 340 B
// per B·N·hidden entry, garbage-collector headroom included) and rounded up; Sinkhorn keeps
// 2·L iterates of each B·N² matrix in the actor's forward and in the update.
const (
	memBase       = 64 << 20
	memPerBNN     = 120
	memPerBNNIter = 16
	memPerBNH     = 350
	// The pairwise model's MLP runs over every (i, j) pair: its activations and their gradients
	// are B·N²·hidden entries per layer and graph (peak RSS of `train --recipe best`, MWM-50,
	// batch 128, hidden 32: 0.91 GB, about 66 B per entry beyond the rest of this model).
	memPerBNNH         = 80
	memPerEvalPerN     = 80  // points, a reference solution per solver and featurised state
	memPerEvalOverhead = 300 // slice headers of an instance and its solutions
)

// MemoryEstimate is the memory a run of cfg needs at its peak, in bytes: the replay buffer, the
// training order, the validation and test sets with their references, the learner's graphs for
// one step (and those of the networks that validate at another size), and spg-gm-spectral's
// cache of spectral similarities. It saturates at math.MaxInt64 instead of overflowing.
func MemoryEstimate(cfg run.Config) int64 {
	capacity, err := replay.Capacity(cfg)
	if err != nil {
		capacity = 0
	}
	model := run.ModelOf(cfg)
	vn := float64(cfg.ValidationN())
	total := float64(memBase) +
		float64(capacity)*float64(replay.TransitionBytes(cfg.N)) +
		4*float64(cfg.TrainSize) +
		float64(cfg.ValSize)*(memPerEvalPerN*vn+memPerEvalOverhead) +
		float64(cfg.TestSize)*(memPerEvalPerN*float64(cfg.N)+memPerEvalOverhead) +
		graphBytes(cfg, model, cfg.Batch, cfg.N)
	if cfg.ValidationN() != cfg.N { // the networks that validate at that size (validationLearner)
		total += graphBytes(cfg, model, min(cfg.Batch, eval.SizedBatchAt(cfg.ValidationN())), cfg.ValidationN())
	}
	if model.Name == run.ModelGMSpectral {
		total += pairops.SpectralCacheBytes // its similarities, kept for the states met again
	}
	if total >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(total)
}

// graphBytes is the memory of model's graphs for one step at batch b and size n.
func graphBytes(cfg run.Config, model run.Model, b, n int) float64 {
	bf, nf, h := float64(b), float64(n), float64(cfg.Hidden)
	total := bf*nf*nf*(memPerBNN+memPerBNNIter*float64(cfg.SinkhornIters)) + bf*nf*h*memPerBNH
	if model.PairCritic {
		total += bf * nf * nf * h * memPerBNNH
	}
	return total
}

// CheckMemory refuses a configuration whose MemoryEstimate exceeds the machine's memory, naming
// the estimate, the limit and the replay buffer's share.
func CheckMemory(cfg run.Config) error {
	capacity, err := replay.Capacity(cfg)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("a run of %s n = %d, batch %d, L = %d, replay buffer %s",
		cfg.Task, cfg.N, cfg.Batch, cfg.SinkhornIters, sysmem.Bytes(int64(capacity)*replay.TransitionBytes(cfg.N)))
	return sysmem.Check(what, MemoryEstimate(cfg))
}

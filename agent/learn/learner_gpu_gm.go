package learn

import (
	"fmt"

	"spg-tui/agent/gpunet"
	"spg-tui/agent/nets"
	"spg-tui/linalg/cuda"
	"spg-tui/run"
)

// gmKernels: SPG+GM's device step has the slow target critic (best's on most graphs) and the
// live one with the critic penalty (best's on regular graphs), but not the hard actor update
// or the exact critic.
func gmKernels(cfg run.Spec) bool {
	return (cfg.ActorAt == "" || cfg.ActorAt == run.ActorAtSoft) && cfg.Critic != run.CriticExact
}

// newGPUGM builds the learner of cfg, an SPG+GM model (spg-gm, spg-gm-logstep, spg-gm-spectral), on dev.
func newGPUGM(cfg run.Spec, dev cuda.Device) (Learner, error) {
	l, err := newGPULearner(cfg, dev, func(host *spgLearner) (gpunet.Net, error) {
		g, ok := nets.GMShapeOf(cfg.Model, cfg.Facts, cfg.N, cfg.Hidden)
		if !ok {
			return nil, fmt.Errorf("agent: %s is not an SPG+GM model", cfg.Model)
		}
		d := gpunet.GMDims{B: cfg.Batch, N: cfg.N, H: cfg.Hidden, MaxIters: max(cfg.SinkhornIters, maxLiveIters),
			Rounds: g.Rounds, WalkLen: g.WalkLen, Consensus: g.ConsensusRounds, ConsensusIters: g.ConsensusIters,
			ConsensusTau: float32(g.ConsensusTau), LogStep: g.LogStepScale, Spectral: g.Spectral, TargetRate: cfg.TargetCritic}
		return gpunet.NewGM(dev, d, specsOf(host.actor), specsOf(host.critic))
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

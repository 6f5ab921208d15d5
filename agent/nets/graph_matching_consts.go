package nets

import "spg-tui/envs"

// GMShape are an SPG+GM model's fixed sizes and constants and its variant, for its GPU learner
// (agent/gpunet's GM), which builds the same network without gorgonia.
type GMShape struct {
	// Rounds message-passing rounds over node inputs of closed walks up to WalkLen.
	Rounds, WalkLen int
	// ConsensusRounds rounds of Sinkhorn at ConsensusTau for ConsensusIters iterations.
	ConsensusRounds, ConsensusIters int
	ConsensusTau                    float64
	// LogStepScale, above 0, is the scale of the consensus steps' logarithms (spg-gm-logstep, spg-gm-spectral);
	// Spectral adds the spectral similarity to the scores (spg-gm-spectral).
	LogStepScale float64
	Spectral     bool
}

// GMShapeOf returns model's GMShape, and false for a model that is not SPG+GM's.
func GMShapeOf(model string, f *envs.Facts, n, h int) (GMShape, bool) {
	a, err := newArch(model, f, n, h)
	g, ok := a.(graphMatching)
	if err != nil || !ok {
		return GMShape{}, false
	}
	s := GMShape{Rounds: gmRounds, WalkLen: gmWalkLen, ConsensusRounds: gmConsensusRounds,
		ConsensusIters: gmConsensusIters, ConsensusTau: gmConsensusTau, Spectral: g.spectral}
	if g.logStep {
		s.LogStepScale = gmLogStepScale
	}
	return s, true
}

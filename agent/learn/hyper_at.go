package learn

import "spg-tui/run"

// HyperAt is what step t (0-based) of a run of cfg reads: the base learning rates decayed by
// LRScale(t), the actor's 0 during the critic warm-up, and exploration with its probability at
// t, off for the models without a critic, which do not explore. cfg's live fields may change
// between steps; its model does not.
func HyperAt(cfg *run.Spec, t int) Hyper {
	s := cfg.LRScale(t)
	h := Hyper{
		Tau: cfg.Tau, SinkhornIters: cfg.SinkhornIters,
		ActorLR: cfg.ActorLR * s, CriticLR: cfg.CriticLR * s,
		CriticPenalty: cfg.CriticPenalty, ClipNorm: cfg.ClipNorm,
		Explore:   cfg.Exploration && cfg.Entry.Kind.HasCritic(),
		RoundLog:  cfg.Rounding == run.RoundingLog,
		Successor: cfg.Entry.Successor,
	}
	if t < cfg.CriticWarmup {
		h.ActorLR = 0
	}
	if h.Explore {
		h.Epsilon = cfg.Epsilon(t)
	}
	return h
}

// Package eval is evaluation and decoding: the deterministic decode (Sinkhorn, Hungarian
// rounding) and the sampled one (Gumbel noise, the 8 symmetries) of a learner, the scores of a
// validation or test set, Policy (a checkpoint's actor, solving instances like a solver), the
// critic-max decode, and the exact references each set is scored against, with their caches in
// the run directory and shared between runs, kept per instance while a long solve runs.
package eval

// Package gm is graph matching (Nowak et al.'s setting): G2 a noisy relabelling of G1, matched to
// keep as many of G1's edges as can be. It registers the task's Facts with envs (envs.TaskGM): its
// data specs, its instance fields and eval's polish (task.go, data.go). Below them, on 0/1
// adjacency matrices alone, are the graph families and noise models that draw G1 and G2 (Params,
// Generate), the objective (the edges a correspondence keeps) and recovery, and the solvers
// (branch and bound, Umeyama's spectral matching, 2-swap local search, Vogelstein et al.'s FAQ).
package gm

// Package gm holds the graph algorithms of the gm task (envs/gm.go) on 0/1 adjacency matrices:
// the graph families and noise models that draw G1 and G2 (Params, Generate), the objective
// (the edges a correspondence keeps) and recovery, and the solvers (branch and bound, Umeyama's
// spectral matching, 2-swap local search, Vogelstein et al.'s FAQ). They know nothing of
// instances or environments, so envs imports them and nothing here imports envs.
package gm

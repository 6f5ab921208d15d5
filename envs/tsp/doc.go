// Package tsp holds the tour solvers of the tsp task (envs/tsp.go) on a row-major n x n cost
// matrix: the exact Held-Karp, nearest neighbour, farthest insertion, 2-opt, or-opt,
// Christofides (with its minimum perfect matching), the assignment patched into one tour, and
// the patching of a successor action's cycle cover. They know nothing of instances or
// environments, so envs imports them and nothing here imports envs.
package tsp

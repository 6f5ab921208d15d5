// Package tsp is the Euclidean travelling salesman problem on n points uniform in the unit
// square. It registers the task's Facts with envs (envs.TaskTSP) and holds its tour solvers on a
// row-major n x n cost matrix: the exact Held-Karp, nearest neighbour, farthest insertion, 2-opt,
// or-opt, Christofides (with its minimum perfect matching), the assignment patched into one tour,
// and the patching of a successor action's cycle cover, which the learners' tour decoders call
// too.
package tsp

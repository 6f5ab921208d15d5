// Package mwm is maximum-weight bipartite matching, the SPG paper's first task: two sets of n
// points uniform in the unit square, matched to maximise the total Euclidean distance. It
// registers the task's Facts with envs (envs.TaskMWM) and holds its exact (Hungarian) and greedy
// solvers.
package mwm

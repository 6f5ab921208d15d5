// Package sort is sorting n numbers ascending, the SPG paper's sorting task, scored by Kendall's
// tau-b against the sorted order. It registers the task's Facts with envs (envs.TaskSort), its
// data (a permutation or distinct integers from a wider range) and its exact solver.
package sort

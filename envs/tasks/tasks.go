// Package tasks loads every task of envs: importing it registers each task's Facts (envs/mwm,
// envs/tsp, envs/sort, envs/gm). The program imports it once, from main, as do the tests that
// need the tasks; envs itself imports none of them.
package tasks

import (
	_ "spg-tui/envs/gm"   // graph matching
	_ "spg-tui/envs/mwm"  // maximum-weight bipartite matching
	_ "spg-tui/envs/sort" // sorting
	_ "spg-tui/envs/tsp"  // the Euclidean travelling salesman problem
)

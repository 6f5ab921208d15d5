package envs

// The tasks' names, as configurations, records and instance files store them. Each task's
// folder registers its Facts under its name (envs/mwm, envs/tsp, envs/sort, envs/gm; envs/tasks
// loads them all); the names live here so that a preset or a test can name a task without
// importing its code, and the framework's own files never branch on them.
const (
	// TaskMWM is maximum-weight bipartite matching (envs/mwm).
	TaskMWM Task = "mwm"
	// TaskTSP is the Euclidean travelling salesman problem (envs/tsp).
	TaskTSP Task = "tsp"
	// TaskSort is sorting numbers ascending (envs/sort).
	TaskSort Task = "sort"
	// TaskGM is graph matching (envs/gm).
	TaskGM Task = "gm"
)

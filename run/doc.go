// Package run is the contract between a training engine and its readers: the configuration of
// a run and its validation, the live parameters, the models a run can train, the records a run
// streams and writes to metrics.jsonl, the Engine interface, and the layout of a run directory.
// It holds no learner: the console and the experiment runner depend on it alone, and are handed
// the constructors of real engines (agent.StartRun, agent.ResumeRun) by the command line.
// Reading a run back from its directory while it is being written is package runlog's.
package run

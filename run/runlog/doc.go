// Package runlog reads a run's records back from its directory while the run's trainer may
// still be writing them: Replay is a read-only run.Engine over metrics.jsonl that follows the
// file (and a resume's rewrite of it), for the console's --view and its comparison of runs.
// It sits next to the run contract (package run) and depends on it alone, so that no reader of
// a run opens metrics.jsonl itself.
package runlog

package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"spg-tui/envs"
)

// errUnsealed is checkAgainst's error for a set without a checksum: one written by a version
// before checksums, computed again without a warning since nothing says it is wrong.
var errUnsealed = errors.New("it has no checksum (written by an older version)")

// maxTestSetBytes bounds the file of a test set of size instances: its optima written indented,
// one a line, with room to spare.
func maxTestSetBytes(size int) int64 { return int64(size)*64 + 1<<20 }

// checksum is the SHA-256 of t without its checksum, with the hash of the instances it was
// computed on and the solvers' version, so that a set edited by hand, or made by other
// generators or solvers, does not match.
func (t TestSet) checksum(insts []envs.Instance) string {
	t.Checksum = ""
	h := sha256.New()
	fmt.Fprintf(h, "spg-tui test set, solvers version %d\n", envs.SolverVersion)
	enc := json.NewEncoder(h)
	if err := enc.Encode(insts); err != nil {
		panic(err) // instances are plain numbers
	}
	if err := enc.Encode(t); err != nil {
		panic(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkAgainst verifies a set read back against want, the set asked for, whose instances are
// insts: the same name, one finite positive optimum per instance where the metric needs them,
// the mean of each solver of the table, and a checksum over the whole.
func (t TestSet) checkAgainst(want TestSet, insts []envs.Instance) error {
	if t.Checksum == "" {
		return errUnsealed
	}
	if t.Name() != want.Name() || t.Task != want.Task || t.N != want.N || t.Seed != want.Seed || t.Size != want.Size || t.Data != want.Data {
		return errors.New("it is another set")
	}
	facts := envs.MustFacts(want.Task)
	if facts.Metric.PerOptimum {
		if len(t.Optimum) != want.Size {
			return fmt.Errorf("it has %d optima for %d instances", len(t.Optimum), want.Size)
		}
		for i, v := range t.Optimum {
			if !(v > 0) || math.IsInf(v, 0) {
				return fmt.Errorf("instance %d: its optimum %g is not a positive number", i, v)
			}
		}
	} else if len(t.Optimum) > 0 {
		return fmt.Errorf("it has optima, which %s does not use", want.Task)
	}
	if got, wantNames := slices.Sorted(maps.Keys(t.Solvers)), tableSolvers(want.Task, want.N); !slices.Equal(got, wantNames) {
		return fmt.Errorf("its solvers are %q, want %q", clip(got), wantNames)
	}
	if t.Checksum != t.checksum(insts) {
		return errors.New("its checksum does not match its content, its instances or this version's solvers")
	}
	return nil
}

// tableSolvers are the solvers whose means a test set of task at size n keeps, sorted.
func tableSolvers(task envs.Task, n int) []string {
	facts := envs.MustFacts(task)
	var out []string
	for _, s := range facts.Table {
		if facts.SolverLimit == nil || facts.SolverLimit(s, n) == nil {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// clip keeps the first few names read from a file, for a one-line error.
func clip(names []string) []string {
	for i, s := range names[:min(len(names), 4)] {
		if len(s) > 20 {
			names[i] = s[:20] + "..."
		}
	}
	return names[:min(len(names), 4)]
}

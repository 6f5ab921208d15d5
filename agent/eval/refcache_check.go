package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"spg-tui/envs"
)

// recomputed are the baselines that a cached reference's check solves again (each costs about
// an objective's evaluation per instance); the others are bound to the entry's checksum.
var recomputed = []string{"greedy", "random"}

// errUnsealed is check's error for an entry without a checksum: one written by a version before
// checksums, which is solved again without a warning since nothing says it is wrong.
var errUnsealed = errors.New("it has no checksum (written by an older version)")

// checksum is the SHA-256 of ref without its checksum, prefixed with the solvers' version, so
// that an entry edited by hand or written by other solvers does not match.
func (ref *Reference) checksum() string {
	c := *ref
	c.Checksum = ""
	data, err := json.Marshal(&c)
	if err != nil {
		panic(err) // plain numbers and strings
	}
	h := sha256.New()
	fmt.Fprintf(h, "spg-tui references, solvers version %d\n", envs.SolverVersion)
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// seal sets ref's checksum, once everything else in it is final.
func (ref *Reference) seal() { ref.Checksum = ref.checksum() }

// check verifies a cached reference (which fits) against insts, hashing to hash: re-derives
// what is cheap (each best solution a permutation with the recorded objective; which solver
// made it and whether it is exact; the optimal, greedy and random means), checks the best
// solutions against the baselines the entry claims, and verifies the checksum over the rest. An
// entry without a checksum is errUnsealed, checked no further.
func (ref *Reference) check(env envs.Env, insts []envs.Instance, hash string) error {
	if ref.Checksum == "" {
		return errUnsealed
	}
	if ref.InstancesSHA256 != hash {
		return errors.New("it was solved for other instances")
	}
	facts := envs.MustFacts(env.Task())
	exact := facts.Exact(env.N())
	if ref.Exact != (exact != "") {
		return fmt.Errorf("it says exact %t, but %s-%d has %s", ref.Exact, env.Task(), env.N(), exactName(exact))
	}
	if err := ref.checkBest(env, insts, exact, facts.Baselines); err != nil {
		return err
	}
	if ref.References != nil {
		if err := ref.checkReferences(env, insts, exact, facts); err != nil {
			return err
		}
	}
	if ref.Checksum != ref.checksum() {
		return errors.New("its checksum does not match its content or this version's solvers")
	}
	return nil
}

// exactName says which exact solver a task has at a size, for the error.
func exactName(exact string) string {
	if exact == "" {
		return "no exact solver"
	}
	return "the exact solver " + exact
}

// checkBest verifies each best solution: made by the exact solver where there is one, else by a
// classical one, a permutation whose objective is the one recorded.
func (ref *Reference) checkBest(env envs.Env, insts []envs.Instance, exact string, baselines []string) error {
	n := env.N()
	for i, s := range ref.Best {
		solver := ref.BestSolver[i]
		if exact != "" && solver != exact || exact == "" && (solver == "random" || !slices.Contains(baselines, solver)) {
			return fmt.Errorf("instance %d: its solution is said to be %s's", i, quoteSolver(solver))
		}
		if !isPermutation(s.Perm, n) {
			return fmt.Errorf("instance %d: its solution is not a permutation of %d", i, n)
		}
		if s.Index != i || !closeTo(env.Objective(insts[i], s.Perm), s.Objective) {
			return fmt.Errorf("instance %d: its solution does not have the recorded objective", i)
		}
	}
	return nil
}

// quoteSolver quotes a solver name read from a file, clipped for a one-line error.
func quoteSolver(s string) string {
	if len(s) > 20 {
		s = s[:20] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// checkReferences verifies the baselines' means: the names are those computeReference writes,
// the optimal mean is the best solutions' (1 for a metric whose optimum scores 1), the cheap
// baselines are solved again, and no baseline beats the best solutions.
func (ref *Reference) checkReferences(env envs.Env, insts []envs.Instance, exact string, facts *envs.Facts) error {
	want := slices.Clone(facts.Baselines)
	if exact != "" || facts.Metric.UnitOptimum {
		want = append(want, "optimal")
	}
	sort.Strings(want)
	if got := slices.Sorted(maps.Keys(ref.References)); !slices.Equal(got, want) {
		return fmt.Errorf("its baselines are %s, want %s", clipList(got), strings.Join(want, ", "))
	}
	best := metricMean(facts.Metric, ref.Best, ref)
	if opt, ok := ref.References["optimal"]; ok {
		wantOpt := best
		if facts.Metric.UnitOptimum {
			wantOpt = 1
		}
		if !closeTo(opt, wantOpt) {
			return fmt.Errorf("its optimal mean %.6g is not its solutions' %.6g", opt, wantOpt)
		}
	}
	for _, name := range facts.Baselines {
		v := ref.References[name]
		if math.IsNaN(v) || (facts.Metric.Maximize && v > best+tolerance(best)) || (!facts.Metric.Maximize && v < best-tolerance(best)) {
			return fmt.Errorf("its %s mean %.6g beats its best solutions' %.6g", name, v, best)
		}
		if !slices.Contains(recomputed, name) {
			continue
		}
		sols := make([]envs.Solution, len(insts))
		for i, inst := range insts {
			p, err := env.Solve(name, inst, rand.New(rand.NewPCG(ref.Seed, uint64(i))))
			if err != nil {
				return fmt.Errorf("instance %d: %s: %v", i, name, err)
			}
			sols[i] = envs.Solution{Index: i, Perm: p, Objective: env.Objective(inst, p)}
		}
		if got := metricMean(facts.Metric, sols, ref); !closeTo(v, got) {
			return fmt.Errorf("its %s mean %.6g is not what %s gives (%.6g)", name, v, name, got)
		}
	}
	return nil
}

// clipList joins names read from a file for a one-line error, at most a few of them.
func clipList(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	q := make([]string, 0, 4)
	for _, s := range names[:min(len(names), 4)] {
		q = append(q, quoteSolver(s))
	}
	if len(names) > 4 {
		q = append(q, fmt.Sprintf("and %d more", len(names)-4))
	}
	return strings.Join(q, ", ")
}

// closeTo reports whether a read-back value equals a re-derived one up to float rounding.
func closeTo(read, derived float64) bool {
	return math.Abs(read-derived) <= tolerance(derived)
}

// tolerance is the rounding allowed around a value.
func tolerance(v float64) float64 { return 1e-9 * math.Max(1, math.Abs(v)) }

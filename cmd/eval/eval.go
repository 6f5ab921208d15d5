// Package evalcmd is spg-tui eval: every instance of a file solved by a trained policy, as
// JSON Lines like solve's.
package evalcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"spg-tui/agent/device"
	"spg-tui/agent/eval"
	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// Options are eval's flags.
type Options struct {
	Checkpoint, In string
	// Decoding is the decode asked for; Run completes it (the model's noise scale, the tour
	// flags not given).
	Decoding    run.Decoding
	Polish      string
	CriticMax   bool
	applyDevice func() (*device.Device, error)
	flags       *flag.FlagSet
}

// NewFlags registers eval's flags into o.
func NewFlags(o *Options, stderr io.Writer) *flag.FlagSet {
	fs := cmdutil.NewFlags("eval", "--checkpoint PATH --in FILE|- [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [--rounding m|log] [--tour-decode patch|patch-scores|greedy] [--patch-weight W] [--tour-repair none|2opt|2opt-scores|2opt-oropt] [--seed S] [--critic-max] [--polish 2swap]")
	fs.StringVar(&o.Checkpoint, "checkpoint", "", "checkpoint file, or a run directory for its best checkpoint (required)")
	fs.StringVar(&o.In, "in", "", "instance file, or - for standard input (required)")
	o.Decoding = eval.SingleDecode
	dec := &o.Decoding
	fs.IntVar(&dec.Samples, "samples", dec.Samples, "candidates per view: the single decode, then K-1 Gumbel-perturbed Sinkhorn samples, each rounded by the Hungarian algorithm; the best is kept; K from 1 to "+strconv.Itoa(run.MaxSamples))
	cmdutil.NoiseFlags(fs, dec)
	fs.BoolVar(&dec.Augment, "augment", false, "also decode the instance's images under the 8 symmetries of the unit square (mwm, tsp), keeping the best")
	fs.StringVar(&dec.Rounding, "rounding", "", "round every candidate by the Hungarian maximum of M (m) or of log M (log: of the actor's scores X, the layer's tau -> 0 limit) instead of as the run does")
	fs.StringVar(&dec.Tour, "tour-decode", run.DecodePatch, "successor models only (others refuse it): how candidates become tours: patch (the Hungarian cover patched on distance by Karp's 2-exchanges, as in training), patch-scores (patched on distance less --patch-weight W times the symmetrised log M) or greedy (edges by decreasing log M, no cover)")
	fs.Float64Var(&dec.PatchWeight, "patch-weight", 0, "with --tour-decode patch-scores (required there), the weight W of the policy's log-probabilities against distance in the patching: a merge costs its added length less W times the log M it adds")
	fs.StringVar(&dec.Repair, "tour-repair", run.RepairNone, "successor models only (others refuse it): a local search on distance improving every candidate tour before the best is kept: none, 2opt, 2opt-scores (the 2-opt moves joining a city to one of the "+strconv.Itoa(run.RepairScoreCandidates)+" it scores highest) or 2opt-oropt; the search, not the policy, adds what it gains")
	fs.Uint64Var(&dec.Seed, "seed", 1, "seed of the sampling noise")
	o.applyDevice = cmdutil.DeviceFlag(fs, "where the policy's network computes", stderr)
	fs.StringVar(&o.Polish, "polish", "", polishUsage)
	fs.BoolVar(&o.CriticMax, "critic-max", false, "decode by the critic instead of the actor: the permutation it rates highest, the Hungarian maximum of G(s) where Q(s, A) = <A, G(s)> (the bilinear critics on mwm and sort; a diagnostic of what the critic has learned)")
	o.flags = fs
	return fs
}

// Main is eval on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o, s.Err), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run solves the file o names with the policy it names and writes one line per instance.
func Run(o *Options, s cmdutil.Streams) int {
	stdout, stderr, fs := s.Out, s.Err, o.flags
	dec := o.Decoding
	if o.Checkpoint == "" {
		return cmdutil.Fail(stderr, "eval", errors.New("--checkpoint is required"))
	}
	if err := cmdutil.NoCheckpoint("checkpoint", o.Checkpoint, true); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	dev, err := o.applyDevice()
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if o.In == "" {
		return cmdutil.Fail(stderr, "eval", errors.New("--in is required (a file, or - for standard input)"))
	}
	f, env, err := cmdutil.ReadInstances(o.In, s.In)
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if err := tourFlags(fs, &dec); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if dec.Tour == run.DecodePatchScores && !cmdutil.Given(fs, "patch-weight") {
		// No weight above 0 was better on the tuning files (docs/results.md), so none is implied.
		return cmdutil.Fail(stderr, "eval", errors.New("--tour-decode patch-scores needs --patch-weight W (at 0 it is patch)"))
	}
	if err := dec.Validate(env.Task()); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if err := cmdutil.CheckNoiseFlags(fs, dec); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if err := checkPolish(o.Polish, env.Task()); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	pol, err := eval.LoadPolicy(o.Checkpoint, dev)
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if note := pol.Note(); note != "" {
		fmt.Fprintf(stderr, "eval: %s, step %d\n", note, pol.Step())
	}
	if err := pol.Accepts(env.Task(), env.N()); err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if o.CriticMax && o.Polish != "" {
		return cmdutil.Fail(stderr, "eval", errors.New("--critic-max decodes by the critic alone: it takes no --polish"))
	}
	ref, err := newFileScore(env, f.Instances)
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	if o.CriticMax {
		return evalCriticMax(pol, o.Checkpoint, env, f.Instances, dec, ref, stdout, stderr)
	}
	if !cmdutil.Given(fs, "gumbel-scale") && dec.Noise == run.NoiseRelative {
		dec.GumbelScale = eval.DefaultGumbelScaleOf(pol.Model(), env.N())
	}
	decode := func(d run.Decoding) func([]envs.Instance) ([]envs.Solution, error) {
		return func(insts []envs.Instance) ([]envs.Solution, error) { return pol.SolveWith(env, insts, d) }
	}
	one := eval.SingleDecode
	one.Rounding, one.Tour, one.PatchWeight, one.Repair = dec.Rounding, dec.Tour, dec.PatchWeight, dec.Repair
	single, singleTime, err := timedDecode(decode(one), f.Instances)
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	sols := single
	var sampledTime time.Duration
	if !dec.Single() {
		if sols, sampledTime, err = timedDecode(decode(dec), f.Instances); err != nil {
			return cmdutil.Fail(stderr, "eval", err)
		}
	}
	mean := meanObjective(sols)
	written := sols
	var polishTime time.Duration
	if o.Polish != "" {
		if written, polishTime, err = polishSolutions(env, f.Instances, sols, o.Polish); err != nil {
			return cmdutil.Fail(stderr, "eval", err)
		}
	}
	polishedMean, err := cmdutil.WriteSolutions(stdout, written)
	if err != nil {
		return cmdutil.FailOutput(stderr, "eval", err)
	}
	count := len(sols)
	perInstance := func(d time.Duration) time.Duration { return (d / time.Duration(count)).Round(time.Microsecond) }
	policyNote := trainedAt(pol, env)
	if dec.Rounding != "" {
		policyNote += ", rounding " + dec.Rounding
	}
	if dec.PolicyTour() {
		policyNote += ", tour-decode " + dec.Tour
		if dec.Tour == run.DecodePatchScores {
			policyNote += fmt.Sprintf(" at weight %g", dec.PatchWeight)
		}
	}
	// A repair is a search, not the policy: its name is on every number it changed.
	repaired := ""
	if dec.Repaired() {
		repaired = " + " + dec.Repair + " repair"
	}
	fmt.Fprintf(stderr, "eval: %d %s-%d instances, policy %s (step %d%s): single decode%s mean objective %.6g%s (%s per instance)",
		count, env.Task(), env.N(), o.Checkpoint, pol.Step(), policyNote, repaired, meanObjective(single), ref.of(single), perInstance(singleTime))
	if !dec.Single() {
		fmt.Fprintf(stderr, "; sampled (K = %d, gumbel-scale %g %s, augment %s, seed %d)%s mean objective %.6g%s (%s per instance)",
			dec.Samples, dec.GumbelScale, dec.Noise, augmentWord(dec.Augment), dec.Seed, repaired, mean, ref.of(sols), perInstance(sampledTime))
	}
	if o.Polish != "" {
		// Apart from the policy's own numbers: the search, not the policy, adds this.
		fmt.Fprintf(stderr, "; policy + %s polish mean objective %.6g%s (%s per instance more)", o.Polish, polishedMean, ref.of(written), perInstance(polishTime))
	}
	fmt.Fprintln(stderr, ref.summary())
	return 0
}

// evalCriticMax is eval --critic-max: the critic's own maximum of every instance, written as the
// actor's decodes are.
func evalCriticMax(pol *eval.Policy, ckpt string, env envs.Env, insts []envs.Instance, dec run.Decoding, ref *fileScore, stdout, stderr io.Writer) int {
	if !dec.Single() || dec.Rounding != "" || dec.Tour != "" || dec.Repair != "" {
		return cmdutil.Fail(stderr, "eval", errors.New("--critic-max decodes by the critic alone: it takes no --samples, --augment, --rounding, --tour-decode or --tour-repair"))
	}
	start := time.Now()
	sols, err := pol.SolveCriticMax(env, insts)
	if err != nil {
		return cmdutil.Fail(stderr, "eval", err)
	}
	elapsed := time.Since(start)
	mean, err := cmdutil.WriteSolutions(stdout, sols)
	if err != nil {
		return cmdutil.FailOutput(stderr, "eval", err)
	}
	fmt.Fprintf(stderr, "eval: %d %s-%d instances, policy %s (step %d%s): the critic's maximum, mean objective %.6g%s (%s per instance)%s\n",
		len(sols), env.Task(), env.N(), ckpt, pol.Step(), trainedAt(pol, env), mean, ref.of(sols), (elapsed / time.Duration(len(sols))).Round(time.Microsecond), ref.summary())
	return 0
}

// trainedAt is ", trained at n = N" when the policy was trained at another size than env's, else "".
func trainedAt(pol *eval.Policy, env envs.Env) string {
	if n := pol.Config().N; n != env.N() {
		return fmt.Sprintf(", trained at n = %d", n)
	}
	return ""
}

// augmentWord says whether the 8 symmetries were decoded.
func augmentWord(on bool) string {
	if on {
		return "x8"
	}
	return "off"
}

// meanObjective is the mean objective of sols.
func meanObjective(sols []envs.Solution) float64 {
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		objectives[i] = s.Objective
	}
	return stats.Mean(objectives)
}

// Package gencmd is spg-tui gen: a seeded instance file on standard output.
package gencmd

import (
	"bufio"
	"flag"
	"fmt"

	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
)

// maxGenCount bounds gen --count: a file of that many instances is already far beyond any
// use (training sets are drawn, not read), and the count stays an instance index.
const maxGenCount = 1_000_000_000

// Options are gen's flags.
type Options struct {
	Task  *envs.Task
	N     int
	Data  string
	Count int
	Seed  uint64
	flags *flag.FlagSet
}

// NewFlags registers gen's flags into o.
func NewFlags(o *Options) *flag.FlagSet {
	fs := cmdutil.NewFlags("gen", "--task "+envs.TaskUsage()+" --n N [--count K] [--seed S] [--data SPEC]")
	o.Task = cmdutil.TaskFlag(fs)
	fs.IntVar(&o.N, "n", 0, "size of every instance, 1 to the task's largest ("+envs.MaxNUsage()+") (required)")
	fs.StringVar(&o.Data, "data", "", "`SPEC` of the task's data: "+envs.DataUsage())
	fs.IntVar(&o.Count, "count", 1, fmt.Sprintf("number of instances, 1 to %d (written one by one, in constant memory)", maxGenCount))
	fs.Uint64Var(&o.Seed, "seed", 1, "dataset seed: instance i is the same for the same (task, n, seed, i)")
	o.flags = fs
	return fs
}

// Main is gen on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run writes the instances o asks for to standard output.
func Run(o *Options, s cmdutil.Streams) int {
	stderr := s.Err
	if err := cmdutil.RequireTaskN(o.flags); err != nil {
		return cmdutil.Fail(stderr, "gen", err)
	}
	if o.Count < 1 || o.Count > maxGenCount {
		return cmdutil.Fail(stderr, "gen", fmt.Errorf("--count %d: must be in [1, %d]", o.Count, maxGenCount))
	}
	if o.Data == "" {
		o.Data = envs.DefaultData(*o.Task)
	}
	env, err := envs.NewData(*o.Task, o.N, o.Data)
	if err != nil {
		return cmdutil.Fail(stderr, "gen", fmt.Errorf("--task/--n/--data: %v", err))
	}
	// Instance by instance: a file of any --count is written in constant memory.
	w := bufio.NewWriter(s.Out)
	fw, err := envs.NewFileWriter(w, env.Task(), env.N())
	if err != nil {
		return cmdutil.FailOutput(stderr, "gen", err)
	}
	for i := range o.Count {
		if err := fw.Write(env.Generate(o.Seed, i)); err != nil {
			return cmdutil.FailOutput(stderr, "gen", err)
		}
	}
	if err := fw.Close(); err != nil {
		return cmdutil.FailOutput(stderr, "gen", err)
	}
	if err := w.Flush(); err != nil {
		return cmdutil.FailOutput(stderr, "gen", err)
	}
	return 0
}

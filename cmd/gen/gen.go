package main

import (
	"bufio"
	"fmt"
	"io"

	"spg-tui/envs"
)

// maxGenCount bounds gen --count: a file of that many instances is already far beyond any
// use (training sets are drawn, not read), and the count stays an instance index.
const maxGenCount = 1_000_000_000

func runGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("gen", "--task "+envs.TaskUsage()+" --n N [--count K] [--seed S] [--data SPEC]")
	task := taskFlag(fs)
	n := fs.Int("n", 0, "size of every instance, 1 to the task's largest ("+envs.MaxNUsage()+") (required)")
	data := fs.String("data", "", "`SPEC` of the task's data: "+envs.DataUsage())
	count := fs.Int("count", 1, fmt.Sprintf("number of instances, 1 to %d (written one by one, in constant memory)", maxGenCount))
	seed := fs.Uint64("seed", 1, "dataset seed: instance i is the same for the same (task, n, seed, i)")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := requireTaskN(fs); err != nil {
		return fail(stderr, "gen", err)
	}
	if *count < 1 || *count > maxGenCount {
		return fail(stderr, "gen", fmt.Errorf("--count %d: must be in [1, %d]", *count, maxGenCount))
	}
	if *data == "" {
		*data = envs.DefaultData(*task)
	}
	env, err := envs.NewData(*task, *n, *data)
	if err != nil {
		return fail(stderr, "gen", fmt.Errorf("--task/--n/--data: %v", err))
	}
	// Instance by instance: a file of any --count is written in constant memory.
	w := bufio.NewWriter(stdout)
	fw, err := envs.NewFileWriter(w, env.Task(), env.N())
	if err != nil {
		return failOutput(stderr, "gen", err)
	}
	for i := range *count {
		if err := fw.Write(env.Generate(*seed, i)); err != nil {
			return failOutput(stderr, "gen", err)
		}
	}
	if err := fw.Close(); err != nil {
		return failOutput(stderr, "gen", err)
	}
	if err := w.Flush(); err != nil {
		return failOutput(stderr, "gen", err)
	}
	return 0
}

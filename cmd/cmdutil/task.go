package main

import (
	"errors"
	"flag"

	"spg-tui/envs"
)

// taskFlag registers --task on fs for the commands that take a task and a size of their own (gen,
// bench): parsed by envs.ParseTask, so a bad one is refused, with its hint, before the size is
// checked. The returned task is "" when the flag is not given.
func taskFlag(fs *flag.FlagSet) *envs.Task {
	task := new(envs.Task)
	fs.Func("task", "`TASK`: "+envs.TaskList()+" (required)", func(s string) (err error) {
		*task, err = envs.ParseTask(s)
		return err
	})
	return task
}

// requireTaskN refuses a command given no --task or no --n, in train's words.
func requireTaskN(fs *flag.FlagSet) error {
	switch {
	case !flagGiven(fs, "task"):
		return errors.New("--task is required (" + envs.TaskList() + ")")
	case !flagGiven(fs, "n"):
		return errors.New("--n is required")
	}
	return nil
}

package cmdutil

import (
	"errors"
	"flag"

	"spg-tui/envs"
)

// TaskFlag registers --task on fs for the commands that take a task and a size of their own (gen,
// bench): parsed by envs.ParseTask, so a bad one is refused, with its hint, before the size is
// checked. The returned task is "" when the flag is not given.
func TaskFlag(fs *flag.FlagSet) *envs.Task {
	task := new(envs.Task)
	fs.Func("task", "`TASK`: "+envs.TaskList()+" (required)", func(s string) (err error) {
		*task, err = envs.ParseTask(s)
		return err
	})
	return task
}

// RequireTaskN refuses a command given no --task or no --n, in train's words.
func RequireTaskN(fs *flag.FlagSet) error {
	switch {
	case !Given(fs, "task"):
		return errors.New("--task is required (" + envs.TaskList() + ")")
	case !Given(fs, "n"):
		return errors.New("--n is required")
	}
	return nil
}

package envs

import (
	"fmt"
	"strings"

	"spg-tui/internal/suggest"
)

// ParseTask returns the task a --task flag names, or an error that lists the tasks, with a hint
// where the name is a task and a size run together ("tsp20": --task tsp --n 20) or near a task's
// name ("tps", "TSP"). The error leaves naming the flag and its value to the flag package.
func ParseTask(s string) (Task, error) {
	if _, ok := registry[Task(s)]; ok {
		return Task(s), nil
	}
	err := fmt.Errorf("not a task (want %s)", TaskList())
	lower := strings.ToLower(s)
	name := strings.TrimRight(lower, "0123456789")
	size := lower[len(name):]
	name = strings.TrimRight(name, "-_")
	f, known := registry[Task(name)]
	switch near := suggest.Nearest(lower, taskNames()); {
	case known && size != "":
		return "", fmt.Errorf("%v; for %s-%s give --task %s --n %s", err, f.Name, size, name, size)
	case known:
		return "", fmt.Errorf("%v; did you mean %s?", err, name)
	case near != nil:
		return "", fmt.Errorf("%v; did you mean %s?", err, suggest.Phrase("", near))
	}
	return "", err
}

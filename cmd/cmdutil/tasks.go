package cmdutil

// Every command works on the tasks by name, so the package every command imports loads them all:
// each task registers itself with envs.
import _ "spg-tui/envs/tasks"

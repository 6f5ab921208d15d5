package gpulayers_test

// The tests run on the real tasks, which register themselves with envs.
import _ "spg-tui/envs/tasks"

package envs_test

// The framework's tests run on the real tasks: this external test file registers them in the
// test binary's envs, which the package's own test files see.
import _ "spg-tui/envs/tasks"

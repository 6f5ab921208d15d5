// Package filetest holds what the tests of the bounded file readers (run, checkpoints, the
// reference cache, test sets, the console's --view) share: a named pipe to feed them, and a
// bound on a read that could hang on it.
package filetest

import (
	"syscall"
	"testing"
	"time"
)

// FIFO makes a named pipe at path that nothing writes, skipping the test where it cannot.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
}

// hangAfter is how long a read may take before Within calls it hung: far beyond a refusal's
// microseconds, even on a loaded machine.
const hangAfter = 10 * time.Second

// Within returns fn's error, failing the test if fn has not returned after hangAfter (a read
// that blocks on a pipe).
func Within(t testing.TB, what string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(hangAfter):
		t.Fatalf("%s still running after %v", what, hangAfter)
		return nil
	}
}

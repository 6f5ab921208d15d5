package cuda

import "runtime"

// osThread runs functions on one locked OS thread: a CUDA context is current per thread, and
// the driver's calls must all see the same one.
type osThread struct {
	calls chan func()
	done  chan struct{}
}

// newOSThread starts the thread's goroutine; stop ends it.
func newOSThread() *osThread {
	t := &osThread{calls: make(chan func()), done: make(chan struct{})}
	go func() {
		runtime.LockOSThread()
		for f := range t.calls {
			f()
			t.done <- struct{}{}
		}
	}()
	return t
}

// do runs f on the thread and waits for it. Calls must not overlap (gpu.call holds its lock):
// one reply channel serves them all, so a launch allocates nothing here.
func (t *osThread) do(f func()) {
	t.calls <- f
	<-t.done
}

// stop ends the thread's goroutine (the OS thread exits with it, still locked).
func (t *osThread) stop() { close(t.calls) }

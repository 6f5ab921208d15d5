package cuda

import "runtime"

// osThread runs functions on one locked OS thread: a CUDA context is current per thread, and
// the driver's calls must all see the same one.
type osThread struct{ calls chan func() }

// newOSThread starts the thread's goroutine; stop ends it.
func newOSThread() *osThread {
	t := &osThread{calls: make(chan func())}
	go func() {
		runtime.LockOSThread()
		for f := range t.calls {
			f()
		}
	}()
	return t
}

// do runs f on the thread and waits for it.
func (t *osThread) do(f func()) {
	done := make(chan struct{})
	t.calls <- func() { f(); close(done) }
	<-done
}

// stop ends the thread's goroutine (the OS thread exits with it, still locked).
func (t *osThread) stop() { close(t.calls) }

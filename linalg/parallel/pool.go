package parallel

import (
	"runtime"
	"sync"
	"time"
)

// The helpers are long-lived goroutines that take For's chunks. A helper that finds no work
// polls for spinFor before it parks: a training step calls For every few tens of µs, and
// waking a parked goroutine on an idle core (a futex wake, on a virtual machine an interrupt
// to a halted vCPU) took longer than a 100 µs chunk on the 2-core VM measured
// (docs/benchmarks.md), so For ran its chunks on one core. Polling keeps the helpers awake
// through a step's serial gaps, as OpenMP runtimes spin before they sleep; after spinFor
// without work they park and cost nothing.
const spinFor = 500 * time.Microsecond

var (
	// jobs carries offers of a For call's chunks to the helpers; an offer no helper takes in
	// time is stale by then and claims nothing.
	jobs = make(chan *chunks, 256)

	helpersMu sync.Mutex
	helpers   int // helpers started; grows with GOMAXPROCS - 1, never shrinks
)

// offer makes c's chunks available to up to k helpers, starting helpers up to GOMAXPROCS - 1.
func offer(c *chunks, k int) {
	want := runtime.GOMAXPROCS(0) - 1
	helpersMu.Lock()
	for helpers < want {
		helpers++
		go help()
	}
	helpersMu.Unlock()
	for range k {
		select {
		case jobs <- c:
		default: // every helper is behind: the caller claims what they do not
		}
	}
}

// help runs offered chunks forever, polling for spinFor after each before it parks.
func help() {
	for {
		c, ok := poll()
		if !ok {
			c = <-jobs
		}
		c.claim()
	}
}

// poll waits up to spinFor for an offer. It keeps its P for 64 looks at a time and then
// yields it, so that goroutines waiting for a P (another run's trainer, the console) are
// delayed by a few µs at most: yielding after every look queues it behind the caller on the
// caller's P, where it runs no chunk in parallel (a step took 35 ms that way, 32-34 ms this
// way, 45-46 ms with parked helpers; docs/benchmarks.md).
func poll() (*chunks, bool) {
	var deadline time.Time
	for i := 0; ; i++ {
		select {
		case c := <-jobs:
			return c, true
		default:
		}
		if i%64 == 0 { // the clock is read every 64 looks: it can be a system call on a VM
			now := time.Now()
			if deadline.IsZero() {
				deadline = now.Add(spinFor)
			} else if now.After(deadline) {
				return nil, false
			}
			if i > 0 {
				runtime.Gosched()
			}
		}
	}
}

package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Spin bounds. A training step makes about a hundred calls of For, most of them under 64 µs
// apart: a helper that waits that long for the next call, and a caller that waits that long
// for the last chunk, skip the futex sleep and wake-up that a new goroutine and a parked
// WaitGroup cost per call. Past the bound both park, so an idle program burns no core.
//
// Spinning pays only where the helper's core is free. Where another process shares it (or,
// with Linux's autogroups, another session: the kernel then gives this whole process one
// core's worth), the spinning thread is descheduled for milliseconds and spends the process's
// share (spins of 100-200 µs measured slower than parking there). So a job that a spinning
// helper picks up more than lateAfter after its post, or that its caller ran alone while a
// helper spun, turns spinning off for everyone for backoff.
const (
	helperSpin = 50 * time.Microsecond
	waitSpin   = 50 * time.Microsecond
	lateAfter  = 20 * time.Microsecond
	backoff    = 250 * time.Millisecond
)

// epoch is the origin of now's monotonic clock.
var epoch = time.Now()

// now returns the monotonic time since epoch in nanoseconds.
func now() int64 { return int64(time.Since(epoch)) }

// helpers is the process's pool of goroutines that run other callers' chunks. It grows to
// GOMAXPROCS-1 (the largest asked for so far) and never shrinks: idle helpers are parked.
var helpers = newPool()

// newPool returns an empty pool.
func newPool() *pool {
	p := &pool{}
	p.cond.L = &p.mu
	return p
}

// pool hands calls of For with unclaimed chunks to helper goroutines.
type pool struct {
	mu       sync.Mutex
	cond     sync.Cond    // parked helpers wait on it, with mu
	jobs     []*chunks    // calls that still want helpers, oldest first
	started  int          // helpers started
	parked   int          // helpers blocked in cond.Wait
	spinning int          // helpers spinning for a job, at most GOMAXPROCS-1
	queued   atomic.Int32 // len(jobs), read without mu by spinning helpers
	quietAt  atomic.Int64 // now() from which spinning is on again after a late pickup
}

// spins reports whether helpers and callers may spin now.
func (p *pool) spins() bool { return now() >= p.quietAt.Load() }

// noteLag records that a spinning helper found a job lag after its post: a late find means
// the helper's thread did not run, and turns spinning off for backoff.
func (p *pool) noteLag(lag time.Duration) {
	if lag > lateAfter {
		p.quietAt.Store(now() + int64(backoff))
	}
}

// post offers c's chunks to w-1 helpers: spinning ones take it without being woken, parked
// ones are signalled, and missing ones are started.
func (p *pool) post(c *chunks, w int) {
	p.mu.Lock()
	c.wanted = w - 1
	c.posted = now()
	p.jobs = append(p.jobs, c)
	p.queued.Store(int32(len(p.jobs)))
	for range min(p.parked, c.wanted-p.spinning) {
		p.cond.Signal()
	}
	start := w - 1 - p.started
	p.started += max(start, 0)
	p.mu.Unlock()
	for range start {
		go p.help()
	}
}

// withdraw removes c from the jobs if no helper took it: its caller has claimed every chunk.
// If a helper was spinning all along, its thread did not run: that is a late pickup too.
func (p *pool) withdraw(c *chunks) {
	p.mu.Lock()
	if c.wanted > 0 {
		if p.spinning > 0 {
			p.noteLag(time.Duration(now() - c.posted))
		}
		p.remove(c)
	}
	p.mu.Unlock()
}

// remove drops c from the jobs; mu is held.
func (p *pool) remove(c *chunks) {
	for i, j := range p.jobs {
		if j == c {
			p.jobs = append(p.jobs[:i], p.jobs[i+1:]...)
			p.jobs[len(p.jobs):cap(p.jobs)][0] = nil // no stale pointer keeps a finished call alive
			break
		}
	}
	c.wanted = 0
	p.queued.Store(int32(len(p.jobs)))
}

// take returns the oldest job that wants a helper, or nil; mu is held.
func (p *pool) take() *chunks {
	if len(p.jobs) == 0 {
		return nil
	}
	c := p.jobs[0]
	if c.wanted--; c.wanted == 0 {
		p.remove(c)
	}
	return c
}

// help runs jobs for ever: it claims chunks of the oldest job, then, while spinning is on and
// fewer than GOMAXPROCS-1 helpers spin, spins up to helperSpin for the next one, then parks.
func (p *pool) help() {
	p.mu.Lock()
	for {
		if c := p.take(); c != nil {
			p.mu.Unlock()
			c.claim()
			p.mu.Lock()
			continue
		}
		if p.spinning < runtime.GOMAXPROCS(0)-1 && p.spins() {
			p.spinning++
			p.mu.Unlock()
			t0 := now()
			found := spinUntil(helperSpin, func() bool { return p.queued.Load() > 0 })
			seen := now()
			p.mu.Lock()
			p.spinning--
			if c := p.take(); c != nil {
				if found && c.posted > t0 {
					p.noteLag(time.Duration(seen - c.posted))
				}
				p.mu.Unlock()
				c.claim()
				p.mu.Lock()
				continue
			}
		}
		p.parked++
		p.cond.Wait()
		p.parked--
	}
}

// spinUntil busy-waits until done reports true or d has passed, and returns done's last
// answer.
func spinUntil(d time.Duration, done func() bool) bool {
	t0 := time.Now()
	for i := 1; ; i++ {
		if done() {
			return true
		}
		if i%64 == 0 && time.Since(t0) > d {
			return false
		}
	}
}

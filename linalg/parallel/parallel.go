// Package parallel splits an index range over the machine's cores.
package parallel

import (
	"runtime"
	"sync/atomic"
)

// Workers returns how many chunks For splits n items into: min(n, GOMAXPROCS), at least 1.
// Callers size per-worker workspaces with it.
func Workers(n int) int {
	w := runtime.GOMAXPROCS(0)
	if n < w {
		w = n
	}
	if w < 1 {
		w = 1
	}
	return w
}

// For calls fn(worker, lo, hi) on Workers(n) contiguous, disjoint chunks that cover [0, n) and
// returns when all have finished. Chunk k is [k*n/w, (k+1)*n/w) and is passed worker = k, so fn
// may use per-worker scratch space without locking. The caller and the pool's helpers (see
// pool.go) claim chunks in turn, so a chunk no helper has taken by the time the caller is free
// runs on the caller instead of being waited for; the chunks, and so the results, do not depend
// on who runs them.
func For(n int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	e := enter()
	defer e.leave()
	w := Workers(n)
	if w == 1 {
		e.work(fn, 0, 0, n)
		return
	}
	c := &chunks{n: n, w: w, fn: fn, acct: e}
	c.left.Store(int32(w))
	offer(c, w-1)
	c.claim()
	c.wait()
}

// chunks is one call of For in one allocation: chunk k of w covers [k*n/w, (k+1)*n/w).
type chunks struct {
	n, w int
	fn   func(worker, lo, hi int)
	acct entry
	next atomic.Int32 // the next chunk to claim
	// left counts chunks not yet finished, not goroutines: the caller never waits for a helper
	// that has not taken a chunk.
	left atomic.Int32
}

// claim runs unclaimed chunks until none is left.
func (c *chunks) claim() {
	for k := int(c.next.Add(1)) - 1; k < c.w; k = int(c.next.Add(1)) - 1 {
		c.acct.work(c.fn, k, k*c.n/c.w, (k+1)*c.n/c.w)
		c.left.Add(-1)
	}
}

// wait returns once every chunk has finished. The chunks still running are on helpers that
// are running now, so it polls, yielding its P between polls, rather than park: waking a parked
// goroutine from another core costs tens to hundreds of µs on some virtual machines, the length
// of a whole chunk.
func (c *chunks) wait() {
	for c.left.Load() > 0 {
		runtime.Gosched()
	}
}

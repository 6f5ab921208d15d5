// Package parallel splits an index range over the machine's cores.
package parallel

import (
	"runtime"
	"sync"
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
// may use per-worker scratch space without locking. The caller and up to w-1 helpers of a
// pool kept between calls claim chunks in turn, so a chunk no helper has taken by the time
// the caller is free (all busy, or not yet running) runs on the caller instead of being waited
// for, and calls from inside a chunk or from other goroutines cannot deadlock; the chunks, and
// so the results, do not depend on who runs them.
func For(n int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	w := Workers(n)
	if w == 1 {
		fn(0, 0, n)
		return
	}
	c := &chunks{n: n, w: w, fn: fn}
	c.left.Store(int32(w))
	c.wg.Add(w)
	helpers.post(c, w)
	c.claim()
	helpers.withdraw(c)
	if !helpers.spins() || !spinUntil(waitSpin, func() bool { return c.left.Load() == 0 }) {
		c.wg.Wait()
	}
}

// chunks is one call of For in one allocation: chunk k of w covers [k*n/w, (k+1)*n/w).
type chunks struct {
	n, w   int
	fn     func(worker, lo, hi int)
	next   atomic.Int32   // the next chunk to claim
	left   atomic.Int32   // chunks not finished, which the caller spins on before it parks
	wg     sync.WaitGroup // the same count, which the caller parks on
	wanted int            // helpers the pool may still hand this call to; the pool's mu guards it
	posted int64          // now() at the post; the pool's mu guards it
}

// claim runs unclaimed chunks until none is left.
func (c *chunks) claim() {
	for k := int(c.next.Add(1)) - 1; k < c.w; k = int(c.next.Add(1)) - 1 {
		c.fn(k, k*c.n/c.w, (k+1)*c.n/c.w)
		c.left.Add(-1)
		c.wg.Done()
	}
}

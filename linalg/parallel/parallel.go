// Package parallel splits an index range over the machine's cores.
package parallel

import (
	"runtime"
	"sync"
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

// For calls fn(worker, lo, hi) on Workers(n) contiguous, disjoint chunks that cover [0, n),
// each in its own goroutine (the first on the caller's), and returns when all have finished.
// worker is in [0, Workers(n)), so fn may use per-worker scratch space without locking.
func For(n int, fn func(worker, lo, hi int)) {
	if n <= 0 {
		return
	}
	w := Workers(n)
	if w == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 1; k < w; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			fn(k, k*n/w, (k+1)*n/w)
		}(k)
	}
	fn(0, 0, n/w)
	wg.Wait()
}

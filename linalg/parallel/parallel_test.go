package parallel

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 3, 8} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 5, 7, 128, 1000} {
			hits := make([]int32, n)
			workersSeen := make([]bool, Workers(n))
			For(n, func(worker, lo, hi int) {
				workersSeen[worker] = true
				for i := lo; i < hi; i++ {
					hits[i]++
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("procs=%d n=%d: index %d visited %d times", procs, n, i, h)
				}
			}
			for w, seen := range workersSeen {
				if n > 0 && !seen {
					t.Fatalf("procs=%d n=%d: worker %d never ran", procs, n, w)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestForNestedAndConcurrent checks that calls made while others are in flight, from inside a
// chunk or from other goroutines, still cover their ranges once each with chunk k as worker k.
func TestForNestedAndConcurrent(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	const n, inner = 37, 11
	check := func() error {
		var hits [n][inner]atomic.Int32
		For(n, func(worker, lo, hi int) {
			if w := Workers(n); lo != worker*n/w || hi != (worker+1)*n/w {
				t.Errorf("worker %d got [%d, %d)", worker, lo, hi)
			}
			for i := lo; i < hi; i++ {
				For(inner, func(_, lo, hi int) {
					for j := lo; j < hi; j++ {
						hits[i][j].Add(1)
					}
				})
			}
		})
		for i := range hits {
			for j := range hits[i] {
				if h := hits[i][j].Load(); h != 1 {
					return fmt.Errorf("item (%d, %d) visited %d times", i, j, h)
				}
			}
		}
		return nil
	}
	errs := make(chan error, 8)
	for range cap(errs) {
		go func() {
			var err error
			for range 50 {
				if err = check(); err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestHelpersStayBelowGOMAXPROCS checks that the pool holds at most the largest GOMAXPROCS - 1
// it has seen (earlier tests included) over calls at several GOMAXPROCS and from many goroutines
// at once, and that every call still covers its range once.
func TestHelpersStayBelowGOMAXPROCS(t *testing.T) {
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	helpersMu.Lock()
	most := helpers + 1
	helpersMu.Unlock()
	for _, procs := range []int{2, 3, 2} {
		runtime.GOMAXPROCS(procs)
		most = max(most, procs)
		done := make(chan int, 16)
		for range cap(done) {
			go func() {
				var hits [100]atomic.Int32
				For(len(hits), func(_, lo, hi int) {
					for i := lo; i < hi; i++ {
						hits[i].Add(1)
					}
				})
				bad := 0
				for i := range hits {
					if hits[i].Load() != 1 {
						bad++
					}
				}
				done <- bad
			}()
		}
		for range cap(done) {
			if bad := <-done; bad != 0 {
				t.Fatalf("GOMAXPROCS %d: %d items not visited exactly once", procs, bad)
			}
		}
		helpersMu.Lock()
		n := helpers
		helpersMu.Unlock()
		if n > most-1 {
			t.Fatalf("GOMAXPROCS up to %d: %d helpers", most, n)
		}
	}
}

// TestAccount: with accounting on, a top-level call's wall time and its chunks' summed time are
// counted once (nested calls inside a chunk are that chunk's time); off, nothing is counted.
func TestAccount(t *testing.T) {
	spin := func(d time.Duration) {
		for t0 := time.Now(); time.Since(t0) < d; {
		}
	}
	Account(true)
	start := time.Now()
	For(4, func(_, lo, hi int) {
		spin(time.Duration(hi-lo) * time.Millisecond)
		For(2, func(int, int, int) { spin(time.Millisecond) })
	})
	elapsed := time.Since(start)
	got := Accounted()
	Account(false)
	// However For cuts the 4 items (c chunks, 1 to 4, as the cores allow) and runs the nested
	// call (its 2 ms in parallel or not), the chunks spin 4 ms between them and each waits at
	// least 1 ms for its nested call: work >= 4 + c >= 5 ms. The longest chunk spins at least
	// 1 ms and waits 1 ms more: wall >= 2 ms. Wall counts the outer call only, so it is within
	// the time the test saw pass, however loaded the machine (the nested calls' walls added
	// would exceed it). No bound here depends on how fast the machine is.
	if got.Work < 5*time.Millisecond || got.Wall < 2*time.Millisecond || got.Wall > elapsed {
		t.Fatalf("accounted %+v in %v: want work >= 5ms (4 ms of chunks + at least 1 ms nested in each) and wall between 2ms and the time elapsed", got, elapsed)
	}
	For(4, func(int, int, int) { spin(time.Millisecond) })
	if a := Accounted(); a.Wall != got.Wall || a.Work != got.Work {
		t.Fatalf("accounting off still counted: %+v after %+v", a, got)
	}
	if acct.depth.Load() != 0 {
		t.Fatalf("depth %d after the calls", acct.depth.Load())
	}
}

package parallel

import (
	"sync/atomic"
	"time"
)

// Accounting of For's work, on only while a benchmark asks (Account): the wall time inside
// top-level For calls and the summed time of their chunks, from which a step's serial part
// (outside any For) and its parallel efficiency (chunk time over wall time times workers)
// follow. Calls nested inside a chunk count as that chunk's time. Meant for one computation
// at a time: two running at once would share the totals.
var acct struct {
	on             atomic.Bool
	depth          atomic.Int32
	wallNS, workNS atomic.Int64
}

// Totals are the accounted times since the last Account(true).
type Totals struct {
	// Wall is the time callers spent inside top-level For calls.
	Wall time.Duration
	// Work is the summed time of those calls' chunks, whoever ran them.
	Work time.Duration
}

// Account turns accounting on (resetting the totals) or off (keeping them for Accounted).
func Account(on bool) {
	if on {
		acct.wallNS.Store(0)
		acct.workNS.Store(0)
	}
	acct.on.Store(on)
}

// Accounted returns the totals accounted so far.
func Accounted() Totals {
	return Totals{Wall: time.Duration(acct.wallNS.Load()), Work: time.Duration(acct.workNS.Load())}
}

// entry is one For call's accounting: whether it raised the depth, whether it is top-level,
// and when it started.
type entry struct {
	counted, top bool
	t0           time.Time
}

// enter starts a For call's accounting.
func enter() entry {
	if !acct.on.Load() {
		return entry{}
	}
	if acct.depth.Add(1) != 1 {
		return entry{counted: true}
	}
	return entry{counted: true, top: true, t0: time.Now()}
}

// leave ends it.
func (e entry) leave() {
	if e.top {
		acct.wallNS.Add(int64(time.Since(e.t0)))
	}
	if e.counted {
		acct.depth.Add(-1)
	}
}

// work runs one chunk, timing it when its call is accounted.
func (e entry) work(fn func(worker, lo, hi int), k, lo, hi int) {
	if !e.top {
		fn(k, lo, hi)
		return
	}
	t0 := time.Now()
	fn(k, lo, hi)
	acct.workNS.Add(int64(time.Since(t0)))
}

package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestForRunsChunksOfBusyHelpers checks that a call whose helpers are all busy with another
// call's chunks runs its own chunks instead of waiting for them.
func TestForRunsChunksOfBusyHelpers(t *testing.T) {
	old := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(old)
	release, busy := make(chan struct{}), make(chan struct{}, 2)
	defer close(release)
	go For(2, func(_, _, _ int) { busy <- struct{}{}; <-release })
	for range 2 { // both chunks run at once, so a helper runs one and is busy
		select {
		case <-busy:
		case <-time.After(10 * time.Second):
			t.Fatal("no helper took the second chunk")
		}
	}
	done := make(chan struct{})
	go func() {
		var hits atomic.Int32
		For(2, func(_, lo, hi int) { hits.Add(int32(hi - lo)) })
		if h := hits.Load(); h != 2 {
			t.Errorf("visited %d items, want 2", h)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("For waited for a busy helper")
	}
}

// TestHelpersPark checks that idle helpers stop spinning and park after the spin bound, and
// that the pool does not grow past GOMAXPROCS-1 helpers.
func TestHelpersPark(t *testing.T) {
	old := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(old)
	for range 1000 {
		For(3, func(_, _, _ int) {})
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		helpers.mu.Lock()
		started, parked, spinning, jobs := helpers.started, helpers.parked, helpers.spinning, len(helpers.jobs)
		helpers.mu.Unlock()
		if spinning == 0 && parked == started && jobs == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s idle: %d helpers started, %d parked, %d spinning, %d jobs queued", started, parked, spinning, jobs)
		}
		time.Sleep(helperSpin)
	}
	helpers.mu.Lock()
	started := helpers.started
	helpers.mu.Unlock()
	if most := max(old, 8) - 1; started > most { // TestForCoversRangeOnce asks for up to 8
		t.Errorf("%d helpers started, want at most %d", started, most)
	}
}

// TestLatePickupStopsSpinning checks the back-off: a pickup later than lateAfter turns spinning
// off until backoff has passed; a prompt one leaves it on.
func TestLatePickupStopsSpinning(t *testing.T) {
	p := newPool()
	if p.noteLag(lateAfter / 2); !p.spins() {
		t.Fatal("a prompt pickup turned spinning off")
	}
	if p.noteLag(2 * lateAfter); p.spins() {
		t.Fatal("a late pickup left spinning on")
	}
	if off := time.Duration(p.quietAt.Load() - now()); off < backoff/2 || off > backoff {
		t.Fatalf("spinning off for %v, want about %v", off, backoff)
	}
	p.quietAt.Store(now() - 1)
	if !p.spins() {
		t.Fatal("spinning still off after the back-off")
	}
}

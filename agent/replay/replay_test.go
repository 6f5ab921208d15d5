package replay

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/linalg/sinkhorn"
	"spg-tui/run"
)

func TestReplayCapacityFromBudget(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 20)
	if got := TransitionBytes(20); got != 4+800+20+4 {
		t.Fatalf("TransitionBytes(20) = %d, want 828", got)
	}
	for _, tc := range []struct {
		buffer int
		mem    int64
		want   int
	}{
		{1000, 1 << 30, 1000},       // the count binds
		{1_000_000, 828 * 500, 500}, // the memory binds
		{1_000_000, 828*500 + 827, 500},
		{1_000_000, 4 << 30, 1_000_000},
	} {
		cfg.Buffer, cfg.BufferMem, cfg.Batch = tc.buffer, tc.mem, 128
		got, err := Capacity(cfg)
		if err != nil || got != tc.want {
			t.Errorf("buffer %d, mem %d: capacity %d, %v; want %d", tc.buffer, tc.mem, got, err, tc.want)
		}
	}
	cfg.Buffer, cfg.BufferMem = 1000, 828*100
	if _, err := Capacity(cfg); err == nil {
		t.Error("a budget below one batch was accepted")
	}
}

// fillReplay stores count recognisable transitions (devtest.Fill) of r's size.
func fillReplay(r *Buffer, count int) { devtest.Fill(r, r.n, count) }

func TestReplayRingAndGet(t *testing.T) {
	const n = 4
	r := New(n, 5)
	fillReplay(r, 7) // transitions 0..6; 0 and 1 are overwritten by 5 and 6
	if r.Len() != 5 || r.Cap() != 5 {
		t.Fatalf("Len %d Cap %d, want 5 5", r.Len(), r.Cap())
	}
	m, p := make([]float32, n*n), make([]float32, n*n)
	seen := map[int]bool{}
	for slot := range 5 {
		idx, rew := r.Get(slot, m, p)
		seen[idx] = true
		if float32(idx) != rew {
			t.Errorf("slot %d: index %d, reward %v", slot, idx, rew)
		}
		for i := range n {
			for j := range n {
				want := float32(0)
				if j == (i+idx)%n {
					want = 1
				}
				if p[i*n+j] != want {
					t.Errorf("slot %d: P[%d][%d] = %v, want %v", slot, i, j, p[i*n+j], want)
				}
				wantM := float64((idx+i*n+j)%8) / 7
				if d := math.Abs(float64(m[i*n+j]) - wantM); d > 0.5/65535+1e-7 {
					t.Errorf("slot %d: M[%d][%d] = %v, want %v", slot, i, j, m[i*n+j], wantM)
				}
			}
		}
	}
	for _, idx := range []int{2, 3, 4, 5, 6} {
		if !seen[idx] {
			t.Errorf("transition %d lost; have %v", idx, seen)
		}
	}
}

// TestReplayUniformSampling checks that every stored transition, the newest included, is drawn
// with probability 1/Len: a chi-square test over the slots, before and after the ring wraps.
func TestReplayUniformSampling(t *testing.T) {
	for _, stored := range []int{10, 23} { // 23 into a ring of 16 wraps
		r := New(3, 16)
		fillReplay(r, stored)
		rng := rand.New(rand.NewPCG(1, 2))
		const draws = 160000
		counts := make([]int, r.Len())
		slots := make([]int, 1000)
		m, p := make([]float32, 9), make([]float32, 9)
		byIndex := map[int]int{}
		for range draws / len(slots) {
			r.Sample(rng, slots)
			for _, s := range slots {
				counts[s]++
				idx, _ := r.Get(s, m, p)
				byIndex[idx]++
			}
		}
		expect := float64(draws) / float64(r.Len())
		chi2 := 0.0
		for _, c := range counts {
			chi2 += (float64(c) - expect) * (float64(c) - expect) / expect
		}
		// df = 15 at most: P(chi2 > 40) < 1e-3.
		if chi2 > 40 {
			t.Errorf("stored %d: chi-square %.1f over %d slots, counts %v", stored, chi2, r.Len(), counts)
		}
		if byIndex[stored-1] == 0 || byIndex[stored-r.Len()] == 0 {
			t.Errorf("stored %d: newest drawn %d times, oldest %d", stored, byIndex[stored-1], byIndex[stored-r.Len()])
		}
	}
}

func TestReplayRoundTrip(t *testing.T) {
	for _, stored := range []int{0, 3, 9, 20} {
		r := New(5, 9)
		fillReplay(r, stored)
		var buf bytes.Buffer
		k, err := r.WriteTo(&buf)
		if err != nil || k != r.EncodedLen() || int64(buf.Len()) != k {
			t.Fatalf("stored %d: WriteTo wrote %d (buffer %d), EncodedLen %d, %v", stored, k, buf.Len(), r.EncodedLen(), err)
		}
		back := New(5, 9)
		if _, err := back.ReadFrom(bytes.NewReader(buf.Bytes())); err != nil {
			t.Fatalf("stored %d: %v", stored, err)
		}
		if back.size != r.size || back.next != r.next ||
			!slices.Equal(back.index, r.index) || !slices.Equal(back.m, r.m) ||
			!slices.Equal(back.p, r.p) || !slices.Equal(back.reward, r.reward) {
			t.Errorf("stored %d: round trip differs", stored)
		}
		if _, err := New(5, 10).ReadFrom(bytes.NewReader(buf.Bytes())); err == nil {
			t.Errorf("stored %d: a buffer of another capacity was accepted", stored)
		}
		if stored > 0 {
			if _, err := New(5, 9).ReadFrom(bytes.NewReader(buf.Bytes()[:buf.Len()-1])); err == nil {
				t.Errorf("stored %d: a truncated buffer was accepted", stored)
			}
		}
	}
}

// TestReplayQuantisationError measures what storing M in 16-bit fixed point costs on real
// Sinkhorn outputs, sharp and flat: at most half a quantum per entry, and line sums within
// n half-quanta of the stored M's.
func TestReplayQuantisationError(t *testing.T) {
	const n, b = 20, 16
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, b*n*n)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	for _, tau := range []float32{1, 0.05} {
		m := make([]float32, b*n*n)
		sinkhorn.Forward(m, x, b, n, tau, 10, nil)
		r := New(n, b)
		p := make([]int, n)
		for k := range b {
			r.AddBatch([]int{k}, m[k*n*n:(k+1)*n*n], p, []float64{0})
		}
		got, pm := make([]float32, n*n), make([]float32, n*n)
		maxEntry, maxSum := 0.0, 0.0
		for k := range b {
			r.Get(k, got, pm)
			for i := range n {
				rowIn, rowOut := 0.0, 0.0
				for j := range n {
					want := float64(m[k*n*n+i*n+j])
					maxEntry = max(maxEntry, math.Abs(float64(got[i*n+j])-want))
					rowIn += want
					rowOut += float64(got[i*n+j])
				}
				maxSum = max(maxSum, math.Abs(rowOut-rowIn))
			}
		}
		t.Logf("tau %g: max entry error %.3g, max row-sum error %.3g", tau, maxEntry, maxSum)
		if maxEntry > 0.5/65535+1e-7 || maxSum > n*0.5/65535+1e-6 {
			t.Errorf("tau %g: entry error %g, row-sum error %g exceed the bound", tau, maxEntry, maxSum)
		}
	}
}

// TestReplayOffHeap checks that a large buffer does not sit on the Go heap, where it would make
// the collector let garbage grow as large as the buffer (see offHeap).
func TestReplayOffHeap(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no mmap")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := New(20, 1_000_000) // 828 MB of capacity
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 1<<20 {
		t.Fatalf("the buffer put %d bytes on the Go heap", grown)
	}
	// It is usable across its whole range.
	m, p := make([]float32, 400), make([]float32, 400)
	perm := make([]int, 20)
	for i := range perm {
		perm[i] = 19 - i
	}
	for _, slot := range []int{0, 500_000, 999_999} {
		r.next = slot
		r.AddBatch([]int{slot}, m, perm, []float64{float64(slot)})
		if idx, rew := r.Get(slot, m, p); idx != slot || rew != float32(slot) || p[19] != 1 {
			t.Fatalf("slot %d: got index %d, reward %v, P[0][19] %v", slot, idx, rew, p[19])
		}
	}
	runtime.KeepAlive(r)
}

// TestAddBatchAsOneByOne checks that a batch stored at once leaves the buffer as storing its
// transitions one by one does, over the cores, across the ring's end, and with a batch larger
// than the buffer (its first transitions overwritten by its last).
func TestAddBatchAsOneByOne(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	const n = 4
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ capacity, before, batch int }{{10, 3, 5}, {10, 8, 5}, {5, 2, 12}} {
		index, m, p, rew := make([]int, c.batch), make([]float32, c.batch*n*n), make([]int, c.batch*n), make([]float64, c.batch)
		for i := range c.batch {
			index[i], rew[i] = rng.IntN(1000), rng.Float64()
			copy(p[i*n:], rng.Perm(n))
		}
		for i := range m {
			m[i] = rng.Float32()
		}
		batch, single := New(n, c.capacity), New(n, c.capacity)
		fillReplay(batch, c.before)
		fillReplay(single, c.before)
		batch.AddBatch(index, m, p, rew)
		for i := range c.batch {
			single.AddBatch(index[i:i+1], m[i*n*n:(i+1)*n*n], p[i*n:(i+1)*n], rew[i:i+1])
		}
		if batch.next != single.next || batch.size != single.size || !slices.Equal(batch.index, single.index) ||
			!slices.Equal(batch.m, single.m) || !slices.Equal(batch.p, single.p) || !slices.Equal(batch.reward, single.reward) {
			t.Errorf("%+v: the batch left the buffer unlike one-by-one adds", c)
		}
	}
}

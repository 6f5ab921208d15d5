package tsp

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// MaxHeldKarp is the largest n HeldKarp accepts: its table has 2^(n-1) * (n-1) entries,
// 80 MB at n = 20.
const MaxHeldKarp = 20

// heldKarpPool keeps the dynamic-programming table between calls, so that solving many
// instances does not allocate (and zero) tens of megabytes each time.
var heldKarpPool sync.Pool

// HeldKarp returns a shortest closed tour under the row-major n x n cost matrix d, starting
// at vertex 0, and its length. d need not be symmetric but must be finite. It runs in
// O(2^n n^2) time and returns an error for n > MaxHeldKarp. It panics if len(d) != n*n.
func HeldKarp(d []float64, n int) ([]int, float64, error) {
	if n < 1 || len(d) != n*n {
		panic(fmt.Sprintf("tsp: cost matrix has %d entries, want %d x %d", len(d), n, n))
	}
	if n > MaxHeldKarp {
		return nil, 0, fmt.Errorf("exact TSP solver (Held-Karp) supports n <= %d, got n = %d", MaxHeldKarp, n)
	}
	tour := make([]int, n)
	switch n {
	case 1:
		return tour, 0, nil
	case 2:
		tour[1] = 1
		return tour, d[1] + d[n], nil
	}

	// Vertex 0 is fixed as the start; bit j of a mask stands for vertex j+1. dp[mask*m+j] is
	// the shortest path from 0 through exactly the vertices of mask, ending at j+1. Entries
	// with j outside mask are never read, so the pooled table needs no clearing.
	m := n - 1
	full := 1<<m - 1
	buf := getFloats(&heldKarpPool, m<<m)
	defer heldKarpPool.Put(buf)
	dp := *buf

	// into[k*n+j] is the cost of the edge j -> k, so the innermost loop, over the
	// predecessors j of k, reads one row of into and one row of dp.
	into := make([]float64, n*n)
	for j := 0; j < n; j++ {
		for k := 0; k < n; k++ {
			into[k*n+j] = d[j*n+k]
		}
	}
	// Each entry dp[next][k] is computed once, from the finished row of prev = next - k,
	// which stays in cache while all its extensions are written. Rows are finished in
	// increasing mask order, as every predecessor of a mask is smaller.
	for j := range m {
		dp[(1<<j)*m+j] = d[j+1]
	}
	for prev := 1; prev < full; prev++ {
		prow := dp[prev*m : prev*m+m]
		for out := uint(full &^ prev); out != 0; out &= out - 1 {
			k := bits.TrailingZeros(out)
			next := prev | 1<<k
			dp[next*m+k] = bestPredecessor(prow, into[(k+1)*n+1:(k+2)*n], uint(prev))
		}
	}

	length, last := math.Inf(1), 0
	final := dp[full*m : full*m+m]
	for j := range final {
		if v := final[j] + d[(j+1)*n]; v < length {
			length, last = v, j
		}
	}

	// Walk back: the predecessor of j in mask is a k whose candidate value reproduces
	// dp[mask][j] exactly (the same floating-point sum was computed in the forward pass).
	mask, j := full, last
	for pos := m; pos >= 1; pos-- {
		tour[pos] = j + 1
		prev := mask &^ (1 << j)
		if prev == 0 {
			break
		}
		target := dp[mask*m+j]
		prow, in := dp[prev*m:prev*m+m], into[(j+1)*n+1:(j+2)*n]
		for p := uint(prev); p != 0; p &= p - 1 {
			k := bits.TrailingZeros(p)
			if prow[k]+in[k] == target {
				j = k
				break
			}
		}
		mask = prev
	}
	return tour, length, nil
}

// bestPredecessor returns min over k in set of prow[k] + in[k].
func bestPredecessor(prow, in []float64, set uint) float64 {
	best := math.Inf(1)
	for ; set != 0; set &= set - 1 {
		k := bits.TrailingZeros(set)
		if v := prow[k] + in[k]; v < best {
			best = v
		}
	}
	return best
}

// getFloats returns a pooled slice of length size, or a new one if the pool has none big
// enough. The caller puts it back when done.
func getFloats(pool *sync.Pool, size int) *[]float64 {
	if p, ok := pool.Get().(*[]float64); ok && cap(*p) >= size {
		*p = (*p)[:size]
		return p
	}
	s := make([]float64, size)
	return &s
}

package sinkhorn

import "sync"

// scratchPool holds per-worker float64 scratch so that Forward and Backward allocate nothing
// per call in steady state. Each worker takes one buffer for its whole chunk of matrices.
var scratchPool = sync.Pool{New: func() any { return new([]float64) }}

// getScratch returns a pooled buffer of length l; release it with putScratch.
func getScratch(l int) *[]float64 {
	p := scratchPool.Get().(*[]float64)
	if cap(*p) < l {
		*p = make([]float64, l)
	}
	*p = (*p)[:l]
	return p
}

// putScratch returns a buffer from getScratch to the pool.
func putScratch(p *[]float64) { scratchPool.Put(p) }

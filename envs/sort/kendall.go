package sort

import (
	"math"
	"slices"
	"sync"
)

// kendallPair is one observation; sorting pairs rather than indices keeps the sort and the
// merge passes cache-friendly.
type kendallPair struct{ x, y float64 }

// kendallScratch is reused across calls so that kendallTau allocates nothing in steady state.
type kendallScratch struct {
	pairs []kendallPair
	ys    []float64
	tmp   []float64
}

var kendallPool = sync.Pool{New: func() any { return new(kendallScratch) }}

// kendallTau returns Kendall's tau-b between x and y (equal lengths) in O(n log n) time using
// Knight's algorithm: sort by x then y, count discordant pairs as the inversions of y by merge
// sort, and correct for ties in x, in y and joint ties. It returns NaN when n < 2, when either
// sequence is constant (tau-b is undefined there, as in scipy) or when any value is NaN.
// It panics if the lengths differ.
func kendallTau(x, y []float64) float64 {
	n := len(x)
	if len(y) != n {
		panic("sort: kendallTau lengths differ")
	}
	if n < 2 {
		return math.NaN()
	}
	s := kendallPool.Get().(*kendallScratch)
	defer kendallPool.Put(s)
	if cap(s.pairs) < n {
		s.pairs = make([]kendallPair, n)
		s.ys = make([]float64, n)
		s.tmp = make([]float64, n)
	}
	pairs, ys, tmp := s.pairs[:n], s.ys[:n], s.tmp[:n]
	for i := range n {
		if math.IsNaN(x[i]) || math.IsNaN(y[i]) {
			return math.NaN()
		}
		pairs[i] = kendallPair{x[i], y[i]}
	}
	// No NaNs remain, so plain comparisons order the pairs (cheaper than cmp.Compare).
	slices.SortFunc(pairs, func(a, b kendallPair) int {
		switch {
		case a.x < b.x || (a.x == b.x && a.y < b.y):
			return -1
		case a.x == b.x && a.y == b.y:
			return 0
		}
		return 1
	})

	// Pairs tied in x (n1) and tied in both x and y (n3), from runs in the sorted order.
	var n1, n3 int64
	xRun, xyRun := int64(1), int64(1)
	for i := 1; i < n; i++ {
		if pairs[i].x == pairs[i-1].x {
			xRun++
			if pairs[i].y == pairs[i-1].y {
				xyRun++
			} else {
				n3 += xyRun * (xyRun - 1) / 2
				xyRun = 1
			}
			continue
		}
		n1 += xRun * (xRun - 1) / 2
		n3 += xyRun * (xyRun - 1) / 2
		xRun, xyRun = 1, 1
	}
	n1 += xRun * (xRun - 1) / 2
	n3 += xyRun * (xyRun - 1) / 2

	for i, p := range pairs {
		ys[i] = p.y
	}
	// Within an x tie y is already ascending, so every inversion is a discordant pair.
	disc := mergeCountInversions(ys, tmp)

	// Pairs tied in y (n2), from runs in the now sorted ys.
	var n2 int64
	run := int64(1)
	for i := 1; i < n; i++ {
		if ys[i] == ys[i-1] {
			run++
			continue
		}
		n2 += run * (run - 1) / 2
		run = 1
	}
	n2 += run * (run - 1) / 2

	n0 := int64(n) * int64(n-1) / 2
	if n1 == n0 || n2 == n0 {
		return math.NaN()
	}
	num := float64(n0 - n1 - n2 + n3 - 2*disc)
	return num / math.Sqrt(float64(n0-n1)*float64(n0-n2))
}

// mergeCountInversions sorts a ascending by bottom-up merge sort, using tmp (same length) as
// scratch, and returns the number of pairs i < j with a[i] > a[j] (equal values are not
// inversions).
func mergeCountInversions(a, tmp []float64) int64 {
	n := len(a)
	var inv int64
	src, dst := a, tmp
	for width := 1; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid := min(lo+width, n)
			hi := min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j] < src[i] {
					// src[j] jumps over every remaining element of the left run.
					inv += int64(mid - i)
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
	return inv
}

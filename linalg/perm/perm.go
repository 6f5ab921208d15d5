package perm

import "fmt"

// Validate returns an error if p is not a permutation of 0..len(p)-1, naming the first
// out-of-range or repeated value and its index.
func Validate(p []int) error {
	n := len(p)
	// A bitmap keeps the check allocation-free for the sizes used here; larger n falls back to
	// a slice.
	var small [4]uint64
	var seen []uint64
	if n <= 64*len(small) {
		seen = small[:]
	} else {
		seen = make([]uint64, (n+63)/64)
	}
	for i, j := range p {
		if j < 0 || j >= n {
			return fmt.Errorf("perm: p[%d] = %d out of range [0, %d)", i, j, n)
		}
		w, b := j/64, uint64(1)<<(j%64)
		if seen[w]&b != 0 {
			return fmt.Errorf("perm: p[%d] = %d repeats an earlier value", i, j)
		}
		seen[w] |= b
	}
	return nil
}

// Identity sets p[i] = i.
func Identity(p []int) {
	for i := range p {
		p[i] = i
	}
}

// Apply sets dst[i] = src[p[i]] for i < len(p). dst and src must not alias.
func Apply[T any](dst, src []T, p []int) {
	dst = dst[:len(p)]
	for i, j := range p {
		dst[i] = src[j]
	}
}

// Compose sets dst[i] = p[q[i]], the permutation that applies q first and then p.
// dst may alias q but not p.
func Compose(dst, p, q []int) {
	dst = dst[:len(q)]
	for i, j := range q {
		dst[i] = p[j]
	}
}

// Invert sets dst[p[i]] = i. dst must not alias p.
func Invert(dst, p []int) {
	dst = dst[:len(p)]
	for i, j := range p {
		dst[j] = i
	}
}

// Each calls fn with every permutation of 0..n-1, n! calls in all (Heap's algorithm, one swap
// between calls); fn must not keep or change p. Brute-force checks of the exact solvers use it.
func Each(n int, fn func(p []int)) {
	p := make([]int, n)
	Identity(p)
	c := make([]int, n)
	fn(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			fn(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

package tsp

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// maxExactPairing is the most vertices minPerfectMatching pairs exactly (by a DP over
// 2^m subsets, 8 MB at m = 20); above it, it uses a greedy approximation.
const maxExactPairing = 20

// pairingPool keeps the subset table of exactPairing between calls.
var pairingPool sync.Pool

// minPerfectMatching pairs up the vertices vs (an even number of indices into the row-major
// n x n symmetric cost matrix d) and writes the partner of vs[i] as mate[i] (an index into
// vs). With at most maxExactPairing vertices the matching has minimum weight; with more it
// is greedy then improved by pair exchanges (see approxPairing), which is not exact.
func minPerfectMatching(d []float64, n int, vs, mate []int) {
	m := len(vs)
	w := make([]float64, m*m)
	for i, u := range vs {
		for j, v := range vs {
			w[i*m+j] = d[u*n+v]
		}
	}
	if m <= maxExactPairing {
		exactPairing(w, m, mate)
	} else {
		approxPairing(w, m, mate)
	}
}

// exactPairing writes into mate a minimum-weight perfect matching of the complete graph on
// m vertices (m even) with symmetric row-major weights w. dp[mask] is the cheapest pairing
// of the vertex set mask; its lowest vertex must pair with some other member, so
// dp[mask] = min_j w[low][j] + dp[mask - low - j]. Odd-sized sets are never needed.
func exactPairing(w []float64, m int, mate []int) {
	full := 1<<m - 1
	buf := getFloats(&pairingPool, full+1)
	defer pairingPool.Put(buf)
	dp := *buf
	dp[0] = 0
	for mask := 3; mask <= full; mask++ {
		if bits.OnesCount(uint(mask))%2 != 0 {
			continue
		}
		dp[mask] = bestPartner(w, m, dp, uint(mask))
	}
	// Re-scan to recover the choices: the chosen j reproduces dp[mask] exactly.
	for mask := uint(full); mask != 0; {
		low := bits.TrailingZeros(mask)
		rest := mask &^ (1 << low)
		for r := rest; r != 0; r &= r - 1 {
			j := bits.TrailingZeros(r)
			if w[low*m+j]+dp[rest&^(1<<j)] == dp[mask] {
				mate[low], mate[j] = j, low
				mask = rest &^ (1 << j)
				break
			}
		}
	}
}

// bestPartner returns dp[mask] from the smaller sets: the lowest vertex of mask paired with
// each other member in turn.
func bestPartner(w []float64, m int, dp []float64, mask uint) float64 {
	low := bits.TrailingZeros(mask)
	rest := mask &^ (1 << low)
	row := w[low*m : low*m+m]
	best := math.Inf(1)
	for r := rest; r != 0; r &= r - 1 {
		j := bits.TrailingZeros(r)
		if v := row[j] + dp[rest&^(1<<j)]; v < best {
			best = v
		}
	}
	return best
}

// approxPairing writes into mate a perfect matching of the complete graph on m vertices
// (m even) with symmetric row-major weights w: greedy by increasing weight (ties to the
// lower pair of indices), then, while some two pairs (a,b), (c,e) can be re-paired as
// (a,c), (b,e) or (a,e), (b,c) for a relative gain above 1e-12, re-pair them. The result
// is locally optimal under pair exchanges but not necessarily of minimum weight.
func approxPairing(w []float64, m int, mate []int) {
	edges := make([]int, 0, m*(m-1)/2)
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			edges = append(edges, i*m+j)
		}
	}
	slices.SortFunc(edges, func(e, f int) int {
		if c := cmp.Compare(w[e], w[f]); c != 0 {
			return c
		}
		return cmp.Compare(e, f)
	})
	for i := range mate {
		mate[i] = -1
	}
	pairs := make([][2]int, 0, m/2)
	for _, e := range edges {
		i, j := e/m, e%m
		if mate[i] < 0 && mate[j] < 0 {
			mate[i], mate[j] = j, i
			pairs = append(pairs, [2]int{i, j})
		}
	}
	for improved := true; improved; {
		improved = false
		for p := range pairs {
			for q := p + 1; q < len(pairs); q++ {
				a, b, c, e := pairs[p][0], pairs[p][1], pairs[q][0], pairs[q][1]
				cur := w[a*m+b] + w[c*m+e]
				alt1, alt2 := w[a*m+c]+w[b*m+e], w[a*m+e]+w[b*m+c]
				switch {
				case alt1 <= alt2 && alt1 < cur-twoOptTol*cur:
					pairs[p], pairs[q] = [2]int{a, c}, [2]int{b, e}
				case alt2 < alt1 && alt2 < cur-twoOptTol*cur:
					pairs[p], pairs[q] = [2]int{a, e}, [2]int{b, c}
				default:
					continue
				}
				improved = true
			}
		}
	}
	for _, pr := range pairs {
		mate[pr[0]], mate[pr[1]] = pr[1], pr[0]
	}
}

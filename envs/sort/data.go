package sort

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"spg-tui/envs"
)

// sortDataUsage says what --data may be for sort.
// What each means is in docs/commands.md (gen).
const sortDataUsage = "sort: range[:k=K] (the default, K 10, at most 1000) or perm"

// sortDefaultData is the data new sorting runs and files use: the paper's lists of integers,
// from a range ten times wider than n, so that two sets of instances are not one multiset.
const sortDefaultData = "range:k=10"

// sortMaxRange is the largest K of range:k=K, which keeps every value exact and the draw cheap.
const sortMaxRange = 1000

// parseSortData reads a sort data specification: "perm" (range 0, a permutation of 0..n-1), or
// "range" with an optional k=K setting, K the width of the range in multiples of n.
func parseSortData(spec string) (rangeK int, err error) {
	kind, settings, hasSettings := strings.Cut(spec, ":")
	switch kind {
	case "perm":
		if hasSettings {
			return 0, fmt.Errorf("data %s: perm takes no settings (%s)", envs.QuoteClip(spec), sortDataUsage)
		}
		return 0, nil
	case "range":
	default:
		return 0, fmt.Errorf("data %s: unknown sort data %s (%s)", envs.QuoteClip(spec), envs.QuoteClip(kind), sortDataUsage)
	}
	rangeK = 10
	if !hasSettings {
		return rangeK, nil
	}
	for i, kv := range strings.Split(settings, ",") {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || key != "k" {
			return 0, fmt.Errorf("data %s: %s is not k=K (%s)", envs.QuoteClip(spec), envs.QuoteClip(kv), sortDataUsage)
		}
		if i > 0 {
			return 0, fmt.Errorf("data %s: k given twice", envs.QuoteClip(spec))
		}
		if rangeK, err = strconv.Atoi(value); err != nil || rangeK < 1 || rangeK > sortMaxRange {
			return 0, fmt.Errorf("data %s: k = %s must be an integer in [1, %d]", envs.QuoteClip(spec), envs.QuoteClip(value), sortMaxRange)
		}
	}
	return rangeK, nil
}

// distinctInts returns n distinct integers drawn uniformly from 0..m-1 (n <= m), in random
// order: the first n steps of a Fisher-Yates shuffle of 0..m-1, which stores only the entries
// it has moved.
func distinctInts(rng *rand.Rand, n, m int) []float64 {
	moved := map[int]int{}
	at := func(i int) int {
		if v, ok := moved[i]; ok {
			return v
		}
		return i
	}
	out := make([]float64, n)
	for i := range n {
		j := i + rng.IntN(m-i)
		vi, vj := at(i), at(j)
		moved[i], moved[j] = vj, vi
		out[i] = float64(vj)
	}
	return out
}

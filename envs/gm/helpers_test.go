package gm

import (
	"math"
	"math/rand/v2"
)

// testRNG is a fixed-seed generator for tests.
func testRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// near reports whether a and b agree to 1e-9, relative to their size.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

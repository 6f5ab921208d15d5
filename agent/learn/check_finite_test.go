package learn

import (
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"spg-tui/linalg/parallel"
)

// TestCheckFiniteFindsTheFirst checks that the scan, split over the cores, reports the first
// non-finite value whichever chunk finds one first, and that it runs inside a parallel loop
// (a batch's M is scanned in every step).
func TestCheckFiniteFindsTheFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	defer parallel.Account(false)
	const per = 100
	x := make([]float32, 6*scanBlock+7)
	for _, c := range []struct {
		bad  map[int]float32
		want int
	}{
		{nil, -1},
		{map[int]float32{5*scanBlock + 1: float32(math.Inf(1)), 3*scanBlock + 5: float32(math.NaN())}, 3*scanBlock + 5},
		{map[int]float32{len(x) - 1: float32(math.Inf(-1))}, len(x) - 1},
		{map[int]float32{0: float32(math.NaN()), 2 * scanBlock: float32(math.NaN())}, 0},
	} {
		clear(x)
		for i, v := range c.bad {
			x[i] = v
		}
		parallel.Account(true)
		got := firstNonFinite(x)
		parallel.Account(false)
		if got != c.want {
			t.Errorf("bad at %v: first %d, want %d", c.bad, got, c.want)
		}
		if parallel.Accounted().Wall == 0 {
			t.Error("the scan ran outside any parallel loop")
		}
		err := CheckFinite(x, "M", per)
		if (err == nil) != (c.want < 0) || err != nil && !strings.HasSuffix(err.Error(), " in instance "+strconv.Itoa(c.want/per)) {
			t.Errorf("bad at %v: CheckFinite %v", c.bad, err)
		}
	}
	if firstNonFinite(nil) != -1 {
		t.Error("an empty slice has a non-finite value")
	}
}

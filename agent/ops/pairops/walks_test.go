package pairops

import (
	"math"
	"math/rand/v2"
	"runtime"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ClosedWalks against dense matrix powers and a naive standardising, on random graphs (one
// with an isolated node) and on a regular graph, whose length-2 counts (the degrees) are all
// equal and so standardise to 0.
func TestClosedWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	const b, n, maxLen = 2, 6, 5
	x := randAdjacency(rng, b, n)
	v := x.Float64s()
	ring := make([]float64, n*n) // the 6-cycle with one chord pair: 0-3 and 1-4 and 2-5
	for i := range n {
		ring[i*n+(i+1)%n], ring[((i+1)%n)*n+i] = 1, 1
		ring[i*n+(i+3)%n] = 1
	}
	v = append(v, ring...)
	graphs := 2*b + 1
	want := make([]float64, graphs*n*(maxLen-1))
	for g := range graphs {
		a := v[g*n*n:][:n*n]
		pow := append([]float64(nil), a...)
		for c := range maxLen - 1 {
			nxt := make([]float64, n*n)
			for i := range n {
				for j := range n {
					for l := range n {
						nxt[i*n+j] += pow[i*n+l] * a[l*n+j]
					}
				}
			}
			pow = nxt
			mean, ss := 0.0, 0.0
			for i := range n {
				mean += pow[i*n+i] / n
			}
			for i := range n {
				ss += (pow[i*n+i] - mean) * (pow[i*n+i] - mean) / n
			}
			for i := range n {
				if ss > 0 {
					want[(g*n+i)*(maxLen-1)+c] = (pow[i*n+i] - mean) / math.Sqrt(ss)
				}
			}
		}
	}
	for i := range n { // the regular graph's degrees are equal
		if want[((graphs-1)*n+i)*(maxLen-1)] != 0 {
			t.Fatalf("the 3-regular graph's standardised degree %d is %g, want 0", i, want[((graphs-1)*n+i)*(maxLen-1)])
		}
	}
	a := tensor.New(tensor.WithShape(graphs, n, n), tensor.WithBacking(v))
	opstest.CheckForward(t, []*tensor.Dense{a}, want, 1e-5, func(p []*G.Node) (*G.Node, error) { return ClosedWalks(p[0], maxLen) })
	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 5, 3), G.WithName("bad"))
	if _, err := ClosedWalks(bad, maxLen); err == nil {
		t.Error("ClosedWalks accepted a (B, 5, 3) state")
	}
	if _, err := ClosedWalks(G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 3), G.WithName("ok")), 1); err == nil {
		t.Error("ClosedWalks accepted walk length 1")
	}
}

// TestClosedWalksSplit checks that a batch split over two workers gives the counts of one
// worker, bit for bit, and that the kernel's scratch carries nothing from pass to pass.
func TestClosedWalksSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	const b, n = 33, 12
	x := randAdjacency(rng, b, n) // (2b, n, n)
	a := tensor.New(tensor.WithShape(2*b, n, n), tensor.WithBacking(toFloat32(x.Float64s())))
	run := func(procs int, k *closedWalks[float32]) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		out := tensor.New(tensor.WithShape(2*b, n, gmTestWalkLen-1), tensor.Of(tensor.Float32))
		if err := k.Forward([]*tensor.Dense{a}, out); err != nil {
			t.Fatal(err)
		}
		return out.Float32s()
	}
	want := run(1, &closedWalks[float32]{maxLen: gmTestWalkLen})
	k := &closedWalks[float32]{maxLen: gmTestWalkLen}
	for pass := range 2 {
		got := run(2, k)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("pass %d: two workers: count %d = %v, one worker %v", pass, i, got[i], want[i])
			}
		}
	}
}

// gmTestWalkLen is the longest walk TestClosedWalksSplit counts.
const gmTestWalkLen = 8

// toFloat32 converts v.
func toFloat32(v []float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x)
	}
	return out
}

// halfPowers gives allPowers' features bit for bit on symmetric 0/1 graphs (sparse to complete,
// sizes 2-50, walk lengths 2-9), and declines a weighted, an asymmetric and a -0 matrix.
func TestClosedWalksHalfPowers(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 4))
	for _, n := range []int{2, 5, 20, 50} {
		for _, p := range []float64{0.05, 0.2, 0.5, 1} {
			a := make([]float32, n*n)
			for i := range n {
				for j := i + 1; j < n; j++ {
					if rng.Float64() < p {
						a[i*n+j], a[j*n+i] = 1, 1
					}
				}
			}
			for maxLen := 2; maxLen <= 9; maxLen++ {
				k := &closedWalks[float32]{maxLen: maxLen}
				ws := walkScratch{walks: make([]float64, n*n), next: make([]float64, n*n), counts: make([]float64, n), nbrs: make([][]int, n)}
				listNeighbours(ws.nbrs, a, n)
				half, all := make([]float32, n*(maxLen-1)), make([]float32, n*(maxLen-1))
				if !k.halfPowers(&ws, a, half, n) {
					t.Fatalf("n %d, p %v, length %d: halfPowers declined a 0/1 graph", n, p, maxLen)
				}
				k.allPowers(&ws, a, all, n)
				for i := range all {
					if math.Float32bits(half[i]) != math.Float32bits(all[i]) {
						t.Fatalf("n %d, p %v, length %d: entry %d is %v, allPowers %v", n, p, maxLen, i, half[i], all[i])
					}
				}
			}
		}
	}
	k := &closedWalks[float64]{maxLen: 4}
	for name, a := range map[string][]float64{
		"weighted":   {0, 2, 2, 0},
		"asymmetric": {0, 1, 0, 0},
		"-0":         {math.Copysign(0, -1), 1, 1, 0},
	} {
		ws := walkScratch{walks: make([]float64, 4), next: make([]float64, 4), counts: make([]float64, 2), nbrs: make([][]int, 2)}
		listNeighbours(ws.nbrs, a, 2)
		if k.halfPowers(&ws, a, make([]float64, 6), 2) {
			t.Errorf("halfPowers took the %s matrix", name)
		}
	}
}

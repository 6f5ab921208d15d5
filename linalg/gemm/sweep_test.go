package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSgemmSweepMatchesTiles checks the kernels that sweep many tiles in one call (down a
// panel's row groups, or across a row group's panels where k is small) against the naive
// product, and bit for bit against the same kernel called once per tile and against the
// product taken one row at a time: neither the sweep, nor the order of the tiles, nor a last
// row group that overlaps the one before changes any rounding. The shapes have whole and
// partial row groups and panels, packed and in-place a and b, small and large k, and a last
// panel for the edge kernel.
func TestSgemmSweepMatchesTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, kn := range supported {
		if kn.sweep == nil {
			continue
		}
		perTile := *kn
		perTile.sweep = nil
		if kn.edge != nil {
			edge := *kn.edge
			edge.sweep = nil
			perTile.edge = &edge
		}
		for _, sh := range [][3]int{{6, 16, 1}, {7, 24, 2}, {13, 17, 10}, {36, 40, 3}, {193, 100, 257}, {64, 128, 300}} {
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					for _, s := range scalars[:3] {
						p := problem{tA: tA, tB: tB, m: sh[0], n: sh[1], k: sh[2], alpha: s[0], beta: s[1]}.withPads(rng.IntN(3), rng.IntN(3), rng.IntN(3))
						a, b, c := p.operands(rng)
						check(t, kn, p, a, b, c)
						got, want := append([]float32(nil), c...), append([]float32(nil), c...)
						sgemm(kn, trans(tA), trans(tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
						sgemm(&perTile, trans(tA), trans(tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, want, p.ldc)
						byRows := append([]float32(nil), c...)
						for i := range p.m {
							ai := i * p.lda
							if tA {
								ai = i
							}
							sgemm(kn, trans(tA), trans(tB), 1, p.n, p.k, p.alpha, a[ai:], p.lda, b, p.ldb, p.beta, byRows[i*p.ldc:], p.ldc)
						}
						sameBits(t, kn, p, got, "swept", want, "tile by tile")
						sameBits(t, kn, p, got, "swept", byRows, "row by row")
					}
				}
			}
		}
	}
}

// TestSgemmCopiedPanelsMatchInPlace checks the products whose untransposed b is copied panel
// by panel (copyPanel) against the naive product, and bit for bit against the same kernel
// reading b in place: the copy changes no rounding.
func TestSgemmCopiedPanelsMatchInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, kn := range supported {
		if kn.copyPanel == nil {
			continue
		}
		inPlace := *kn
		inPlace.copyPanel = nil
		for _, sh := range [][3]int{{4 * kn.mr, kn.nr, 1}, {4*kn.mr + 1, 2*kn.nr + 3, 17}, {100, 70, 300}, {193, 128, 513}} {
			for _, tA := range []bool{false, true} {
				for _, s := range scalars[:3] {
					p := problem{tA: tA, m: sh[0], n: sh[1], k: sh[2], alpha: s[0], beta: s[1]}.withPads(rng.IntN(3), rng.IntN(40), rng.IntN(3))
					a, b, c := p.operands(rng)
					check(t, kn, p, a, b, c)
					got, want := append([]float32(nil), c...), append([]float32(nil), c...)
					sgemm(kn, trans(tA), trans(false), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
					sgemm(&inPlace, trans(tA), trans(false), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, want, p.ldc)
					sameBits(t, kn, p, got, "copied", want, "in place")
				}
			}
		}
	}
}

// TestSgemmEdgeInPlace checks a last, partial row group read in place, where a extends past it,
// against the same product with a cut to its last element (the group packed): the same bits,
// and nothing of what follows the rows leaks into c, though it is all NaN here.
func TestSgemmEdgeInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	nan := float32(math.NaN())
	for _, kn := range supported {
		if kn.mr == 1 { // a one-row kernel has no partial row groups
			continue
		}
		for _, sh := range [][3]int{{1, 5, 7}, {kn.mr - 1, 17, 3}, {kn.mr + 1, 40, 300}, {3*kn.mr + 2, 33, 20}} {
			for _, tA := range []bool{false, true} {
				for _, s := range [][2]float32{{0.5, 1}, {-1.25, 0.75}, {1, 0}} {
					p := problem{tA: tA, m: sh[0], n: sh[1], k: sh[2], alpha: s[0], beta: s[1]}.withPads(1+rng.IntN(3), rng.IntN(3), rng.IntN(3))
					a, b, c := p.operands(rng)
					rows, cols := p.m, p.k
					if tA {
						rows, cols = p.k, p.m
					}
					for r := range rows { // the padding of every row, then a tail, NaN
						for j := cols; j < p.lda; j++ {
							a[r*p.lda+j] = nan
						}
					}
					exact := a[:p.lda*(rows-1)+cols]
					long := append(append([]float32(nil), a...), make([]float32, kn.mr*p.lda)...)
					for i := len(a); i < len(long); i++ {
						long[i] = nan
					}
					check(t, kn, p, long, b, c)
					got, want := append([]float32(nil), c...), append([]float32(nil), c...)
					sgemm(kn, trans(tA), trans(false), p.m, p.n, p.k, p.alpha, long, p.lda, b, p.ldb, p.beta, got, p.ldc)
					sgemm(kn, trans(tA), trans(false), p.m, p.n, p.k, p.alpha, exact, p.lda, b, p.ldb, p.beta, want, p.ldc)
					sameBits(t, kn, p, got, "in place", want, "packed")
				}
			}
		}
	}
}

// sameBits fails the test unless got and want, c of the product p computed by kernel kn two
// ways (named gotHow and wantHow), agree bit for bit.
func sameBits(t *testing.T, kn *microKernel, p problem, got []float32, gotHow string, want []float32, wantHow string) {
	t.Helper()
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: %v: c[%d] = %v %s, %v %s", kn.name, p, i, got[i], gotHow, want[i], wantHow)
		}
	}
}

// TestSweepBoundsCheck checks that a sweep whose a, b or c is one element short of what its
// tiles reach panics instead of running the assembly past the slice, and that the exact
// lengths run.
func TestSweepBoundsCheck(t *testing.T) {
	for _, kn := range supported {
		if kn.sweep == nil {
			continue
		}
		const kc, tiles, rs, ps, bs, ldc = 5, 3, 7, 1, 40, 50
		mr, nr := kn.mr, kn.nr
		aStep, bStep, cStep := mr*rs, nr, nr
		la := (tiles-1)*aStep + (mr-1)*rs + (kc-1)*ps + 1
		lb := (tiles-1)*bStep + (kc-1)*bs + nr
		lc := (tiles-1)*cStep + (mr-1)*ldc + nr
		run := func(la, lb, lc int) (panicked bool) {
			defer func() { panicked = recover() != nil }()
			kn.sweep(kc, make([]float32, la), rs, ps, make([]float32, lb), bs, make([]float32, lc), ldc, 1, 0, tiles, aStep, bStep, cStep)
			return false
		}
		if run(la, lb, lc) {
			t.Fatalf("%s: a sweep with exact operands panicked", kn.name)
		}
		for i, short := range [][3]int{{la - 1, lb, lc}, {la, lb - 1, lc}, {la, lb, lc - 1}} {
			if !run(short[0], short[1], short[2]) {
				t.Errorf("%s: operand %d one short: no panic", kn.name, i)
			}
		}
	}
}

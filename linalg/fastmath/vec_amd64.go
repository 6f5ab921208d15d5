//go:build !noasm

package fastmath

import "golang.org/x/sys/cpu"

//go:generate go run gen_vec.go

// haveAVX2 selects the assembly kernels; both AVX2 and FMA are needed.
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// sigmoidAVX2 sets dst[i] = sigmoid(x[i]) for i < n; n must be a positive multiple of 8.
//
//go:noescape
func sigmoidAVX2(dst, x *float32, n int)

// tanhAVX2 sets dst[i] = tanh(x[i]) for i < n; n must be a positive multiple of 8.
//
//go:noescape
func tanhAVX2(dst, x *float32, n int)

// gruGatesAVX2 is GRUGates for the hidden units 0..n-1 of a row of width h (n a positive
// multiple of 8, n <= h).
//
//go:noescape
func gruGatesAVX2(gi, gh, bi, bh, hn, hp, hNew *float32, n, h int)

// gruGatesBackwardAVX2 is GRUGatesBackward for the hidden units 0..n-1 of a row of width h (n a
// positive multiple of 8, n <= h).
//
//go:noescape
func gruGatesBackwardAVX2(grad, carry, dout, gates, hn, hp *float32, n, h int)

// leakyAVX2 sets dst[i] = x[i] if x[i] > 0, else slope x[i], for i < n; n must be a positive
// multiple of 8.
//
//go:noescape
func leakyAVX2(dst, x *float32, n int, slope float32)

// biasLeakyRowsAVX2 is biasLeakyRowsAVX512 on 8 lanes: tail points to the mask of the last
// n%8 elements of a row (tailMasks).
//
//go:noescape
func biasLeakyRowsAVX2(y *float32, rows int, b *float32, n int, slope float32, tail *int32)

// tailMasks[k] has -1 in its first k lanes and 0 in the others: VMASKMOVPS's mask for a partial
// vector of k floats.
var tailMasks = func() (m [8][8]int32) {
	for k := range m {
		for i := range k {
			m[k][i] = -1
		}
	}
	return m
}()

// leakyGradAVX2 sets dst[i] = dy[i] if y[i] > 0, else slope dy[i], for i < n; n must be a
// positive multiple of 8.
//
//go:noescape
func leakyGradAVX2(dst, dy, y *float32, n int, slope float32)

// sigmoidVec runs the vector kernel over the longest prefix of x whose length is a multiple of
// 8 and returns that length (0 without AVX2).
func sigmoidVec(dst, x []float32) int {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	sigmoidAVX2(&dst[0], &x[0], n)
	return n
}

// tanhVec: see sigmoidVec.
func tanhVec(dst, x []float32) int {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	tanhAVX2(&dst[0], &x[0], n)
	return n
}

// gruGatesVec runs gruGatesAVX2 over the longest prefix of the h = len(hp) hidden units whose
// length is a multiple of 8 and returns that length (0 without AVX2). The slices have been
// checked by GRUGates.
func gruGatesVec(gi, gh, bi, bh, hn, hp, hNew []float32) int {
	n := len(hp) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	w := wide(n)
	if w > 0 {
		gruGatesAVX512(&gi[0], &gh[0], &bi[0], &bh[0], &hn[0], &hp[0], &hNew[0], w, len(hp))
	}
	if w < n {
		gruGatesAVX2(&gi[w], &gh[w], &bi[w], &bh[w], &hn[w], &hp[w], &hNew[w], n-w, len(hp))
	}
	return n
}

// gruGatesBackwardVec: see gruGatesVec.
func gruGatesBackwardVec(g, carry, dout, gates, hn, hp []float32) int {
	n := len(hp) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	w := wide(n)
	if w > 0 {
		gruGatesBackwardAVX512(&g[0], &carry[0], &dout[0], &gates[0], &hn[0], &hp[0], w, len(hp))
	}
	if w < n {
		gruGatesBackwardAVX2(&g[w], &carry[w], &dout[w], &gates[w], &hn[w], &hp[w], n-w, len(hp))
	}
	return n
}

// leakyVec: see sigmoidVec.
func leakyVec(dst, x []float32, slope float32) int {
	n := len(x) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	w := wide(n)
	if w > 0 {
		leakyAVX512(&dst[0], &x[0], w, slope)
	}
	if w < n {
		leakyAVX2(&dst[w], &x[w], n-w, slope)
	}
	return n
}

// leakyGradVec: see sigmoidVec.
func leakyGradVec(dst, dy, y []float32, slope float32) int {
	n := len(y) &^ 7
	if !haveAVX2 || n == 0 {
		return 0
	}
	w := wide(n)
	if w > 0 {
		leakyGradAVX512(&dst[0], &dy[0], &y[0], w, slope)
	}
	if w < n {
		leakyGradAVX2(&dst[w], &dy[w], &y[w], n-w, slope)
	}
	return n
}

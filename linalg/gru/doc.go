// Package gru implements a GRU layer over a whole batched sequence as a forward/backward pair
// of kernels over caller-provided buffers, with PyTorch's semantics and parameter layout.
//
// Gate order is r, z, n; wih is (3H x I), whh is (3H x H), bih and bhh have length 3H:
//
//	r  = sigma(Wir x + bir + Whr h + bhr)
//	z  = sigma(Wiz x + biz + Whz h + bhz)
//	n  = tanh(Win x + bin + r * (Whn h + bhn))
//	h' = (1 - z) * n + z * h
//
// All matrices are dense row-major slices: x is (B, T, I), the output is (B, T, H) holding the
// state after each step, and the initial state h0 is (B, H) or nil for zeros. With reverse set,
// time runs from T-1 down to 0 (the backward direction of a bidirectional GRU, which is two
// calls). Buffers must not overlap.
//
// The batch rows are independent sequences, so large batches are split over goroutines, each
// running every step of its rows (GEMMs included) with no synchronisation between steps. GEMMs
// go through spg-tui/linalg/backend (OpenBLAS when built with -tags openblas). For float32 the
// gate activations run in fastmath's vector kernels and the backward gate arithmetic in AVX2
// assembly where the CPU has it; float64, for gradient checks, uses package math.
package gru

// Float is the element type of the kernels: float32 for training, float64 for gradient checks.
// The types are exact (no ~) because BLAS dispatch needs []float32 or []float64.
type Float interface{ float32 | float64 }

// Dims are the sizes of one GRU call: batch B, sequence length T, input width I, hidden width H.
type Dims struct{ B, T, I, H int }

// Layout of the saved buffer: one row of savedCols*H values per (b, t), at (b*T+t)*savedCols*H:
// r, z, n, hn = Whn h + bhn, and the state h that step t started from. Backward reads all five.
const savedCols = 5

// Layout of Backward's gate-gradient rows in work: one row of gradCols*H values per (b, t),
// holding the gradients of the pre-activations in the order
// [n (input part) | r | z | n (hidden part, = dn * r)], so that columns H..4H are the gradient
// of the hidden projection in whh's row order and columns 0..3H that of the input projection.
const gradCols = 4

// SavedLen returns the length of the buffer Forward fills for Backward: 5*B*T*H.
func SavedLen(d Dims) int { return savedCols * d.B * d.T * d.H }

// WorkLen returns the length of the scratch buffer Forward and Backward need. Its contents
// are not used between calls.
func WorkLen(d Dims) int {
	return max(3*d.B*d.H+3*d.H*d.H, gradCols*d.B*d.T*d.H+d.B*d.H+d.B*d.T)
}

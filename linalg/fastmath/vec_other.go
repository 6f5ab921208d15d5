//go:build !amd64 || noasm

package fastmath

// sigmoidVec has no vector kernel on this platform: it does nothing and returns 0.
func sigmoidVec(dst, x []float32) int { return 0 }

// tanhVec: see sigmoidVec.
func tanhVec(dst, x []float32) int { return 0 }

// gruGatesVec: see sigmoidVec.
func gruGatesVec(gi, gh, bi, bh, hn, hp, hNew []float32) int { return 0 }

// gruGatesBackwardVec: see sigmoidVec.
func gruGatesBackwardVec(g, carry, dout, gates, hn, hp []float32) int { return 0 }

// leakyVec: see sigmoidVec.
func leakyVec(dst, x []float32, slope float32) int { return 0 }

// leakyGradVec: see sigmoidVec.
func leakyGradVec(dst, dy, y []float32, slope float32) int { return 0 }

// biasLeakyRowsVec: see sigmoidVec (it reports false).
func biasLeakyRowsVec(y, b []float32, slope float32) bool { return false }

package gru

import "fmt"

// checkDims panics unless every dimension is positive.
func checkDims(d Dims) {
	if d.B <= 0 || d.T <= 0 || d.I <= 0 || d.H <= 0 {
		panic(fmt.Sprintf("gru: dimensions must be positive, got %+v", d))
	}
}

// checkLen panics unless len(s) == n; a nil s passes when optional.
func checkLen[F Float](name string, s []F, n int, optional bool) {
	if optional && s == nil {
		return
	}
	if len(s) != n {
		panic(fmt.Sprintf("gru: len(%s) = %d, want %d", name, len(s), n))
	}
}

// checkMin panics unless len(s) >= n.
func checkMin[F Float](name string, s []F, n int) {
	if len(s) < n {
		panic(fmt.Sprintf("gru: len(%s) = %d, want at least %d", name, len(s), n))
	}
}

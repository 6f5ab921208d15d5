//go:build !noasm

package batchnorm

import "golang.org/x/sys/cpu"

// haveAVX2 selects the assembly row kernels; both AVX2 and FMA are needed.
var haveAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// The assembly row kernels (rows_amd64.s); n is a positive multiple of 8.

//go:noescape
func sumAVX2(x *float32, n int) float64

//go:noescape
func sumSqDevAVX2(x *float32, n int, mu float64) float64

//go:noescape
func sumDyXhatAVX2(dy, x *float32, n int, mu, is float32) (sdy, sdyx float64)

//go:noescape
func normaliseAVX2(y, x *float32, n int, mu, scale, shift float32)

//go:noescape
func gradAVX2(dx, dy, x *float32, n int, mu, is, k, a, bb float32)

// vecLen returns how many leading elements of a row of x the vector kernels handle: its length
// rounded down to a multiple of 8 for float32 with AVX2, else 0.
func vecLen[F Float](x []F) int {
	if _, ok := any(x).([]float32); !ok || !haveAVX2 {
		return 0
	}
	return len(x) &^ 7
}

// The ...Vec functions run their kernel over the first vecLen elements and return that count
// with the kernel's result; the callers finish the rows in Go.

func sumVec[F Float](x []F) (float64, int) {
	n := vecLen(x)
	if n == 0 {
		return 0, 0
	}
	return sumAVX2(&any(x).([]float32)[0], n), n
}

func sumSqDevVec[F Float](x []F, mu float64) (float64, int) {
	n := vecLen(x)
	if n == 0 {
		return 0, 0
	}
	return sumSqDevAVX2(&any(x).([]float32)[0], n, mu), n
}

func sumDyXhatVec[F Float](dy, x []F, mu, is F) (sdy, sdyx float64, n int) {
	if n = vecLen(x); n == 0 {
		return 0, 0, 0
	}
	dy = dy[:n]
	sdy, sdyx = sumDyXhatAVX2(&any(dy).([]float32)[0], &any(x).([]float32)[0], n, float32(mu), float32(is))
	return sdy, sdyx, n
}

func normaliseVec[F Float](y, x []F, mu, scale, shift F) int {
	n := vecLen(x)
	if n == 0 {
		return 0
	}
	y = y[:n]
	normaliseAVX2(&any(y).([]float32)[0], &any(x).([]float32)[0], n, float32(mu), float32(scale), float32(shift))
	return n
}

func gradVec[F Float](dx, dy, x []F, mu, is, k, a, bb F) int {
	n := vecLen(x)
	if n == 0 {
		return 0
	}
	dx, dy = dx[:n], dy[:n]
	gradAVX2(&any(dx).([]float32)[0], &any(dy).([]float32)[0], &any(x).([]float32)[0], n,
		float32(mu), float32(is), float32(k), float32(a), float32(bb))
	return n
}

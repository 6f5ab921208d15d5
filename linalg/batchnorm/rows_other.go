//go:build !amd64 || noasm

package batchnorm

// Without vector kernels the ...Vec functions handle no elements: see rows_amd64.go.

func sumVec[F Float](x []F) (float64, int)                                 { return 0, 0 }
func sumSqDevVec[F Float](x []F, mu float64) (float64, int)                { return 0, 0 }
func sumDyXhatVec[F Float](dy, x []F, mu, is F) (sdy, sdyx float64, n int) { return 0, 0, 0 }
func normaliseVec[F Float](y, x []F, mu, scale, shift F) int               { return 0 }
func gradVec[F Float](dx, dy, x []F, mu, is, k, a, bb F) int               { return 0 }

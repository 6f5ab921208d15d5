package batchnorm

import (
	"math"

	"spg-tui/linalg/parallel"
)

// channels runs fn over [0, c), split over goroutines when the tensor of size n is large.
func channels(c, n int, fn func(worker, lo, hi int)) {
	if n < minParallel {
		fn(0, 0, c)
		return
	}
	parallel.For(c, fn)
}

// Forward normalises x (b, c, f) into y with the batch statistics (training mode):
// y = gamma (x - mean) / sqrt(var + eps) + beta, with var the biased variance per channel.
// It writes mean and invStd = 1/sqrt(var + eps) (length c) for Backward and UpdateRunning.
func Forward[F Float](y, x, gamma, beta []F, b, c, f int, eps F, mean, invStd []F) {
	checkDims(b, c, f)
	n := b * c * f
	checkLen("y", y, n)
	checkLen("x", x, n)
	checkLen("gamma", gamma, c)
	checkLen("beta", beta, c)
	checkLen("mean", mean, c)
	checkLen("invStd", invStd, c)
	m := float64(b * f)
	channels(c, n, func(_, lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			var s float64
			for bi := range b {
				s += sum(x[(bi*c+ch)*f:][:f])
			}
			mu := s / m
			// Second pass for the variance: no cancellation when |mean| >> std.
			var q float64
			for bi := range b {
				q += sumSqDev(x[(bi*c+ch)*f:][:f], mu)
			}
			is := 1 / math.Sqrt(q/m+float64(eps))
			mean[ch], invStd[ch] = F(mu), F(is)
			normalise(y, x, b, c, f, ch, F(mu), gamma[ch]*F(is), beta[ch])
		}
	})
}

// Inference normalises x (b, c, f) into y with running statistics (evaluation mode):
// y = gamma (x - runMean) / sqrt(runVar + eps) + beta.
func Inference[F Float](y, x, gamma, beta, runMean, runVar []F, b, c, f int, eps F) {
	checkDims(b, c, f)
	n := b * c * f
	checkLen("y", y, n)
	checkLen("x", x, n)
	checkLen("gamma", gamma, c)
	checkLen("beta", beta, c)
	checkLen("runMean", runMean, c)
	checkLen("runVar", runVar, c)
	channels(c, n, func(_, lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			is := 1 / math.Sqrt(float64(runVar[ch])+float64(eps))
			normalise(y, x, b, c, f, ch, runMean[ch], gamma[ch]*F(is), beta[ch])
		}
	})
}

// normalise sets y = (x - mu) * scale + shift on channel ch.
func normalise[F Float](y, x []F, b, c, f, ch int, mu, scale, shift F) {
	for bi := range b {
		off := (bi*c + ch) * f
		xr := x[off:][:f]
		yr := y[off:][:len(xr)]
		for i := normaliseVec(yr, xr, mu, scale, shift); i < len(xr); i++ {
			yr[i] = (xr[i]-mu)*scale + shift
		}
	}
}

package batchnorm

import "fmt"

// UpdateRunning folds one training batch's statistics into the running estimates, as
// PyTorch does: run = (1 - momentum) run + momentum stat, with the unbiased variance
// var * count/(count-1), where count = b*f is the number of values per channel and var is
// recovered from Forward's invStd as 1/invStd^2 - eps (exact to a few ulp of var + eps, the
// quantity Inference uses). It panics if count < 2, where the unbiased variance is undefined.
func UpdateRunning[F Float](runMean, runVar, mean, invStd []F, count int, momentum, eps F) {
	c := len(mean)
	checkLen("runMean", runMean, c)
	checkLen("runVar", runVar, c)
	checkLen("invStd", invStd, c)
	if count < 2 {
		panic(fmt.Sprintf("batchnorm: UpdateRunning needs at least 2 values per channel, got %d", count))
	}
	unbias := F(count) / F(count-1)
	for ch := range c {
		v := max(1/(invStd[ch]*invStd[ch])-eps, 0)
		runMean[ch] = (1-momentum)*runMean[ch] + momentum*mean[ch]
		runVar[ch] = (1-momentum)*runVar[ch] + momentum*v*unbias
	}
}

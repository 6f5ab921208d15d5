package batchnorm

// Backward computes the gradients through Forward (training mode) given dy (b, c, f). It
// OVERWRITES dx (b, c, f), dgamma and dbeta (length c); dgamma and dbeta may be nil when gamma
// and beta are frozen (dx needs their sums anyway, so that saves only their storage). x and
// gamma are Forward's inputs, mean and invStd what it wrote. With xhat = (x - mean) invStd and
// m = b*f per channel:
//
//	dbeta = sum dy, dgamma = sum dy xhat, dx = gamma invStd (dy - dbeta/m - xhat dgamma/m).
func Backward[F Float](dx, dgamma, dbeta, dy, x, gamma, mean, invStd []F, b, c, f int) {
	checkDims(b, c, f)
	n := b * c * f
	checkLen("dx", dx, n)
	if dgamma != nil {
		checkLen("dgamma", dgamma, c)
	}
	if dbeta != nil {
		checkLen("dbeta", dbeta, c)
	}
	checkLen("dy", dy, n)
	checkLen("x", x, n)
	checkLen("gamma", gamma, c)
	checkLen("mean", mean, c)
	checkLen("invStd", invStd, c)
	m := float64(b * f)
	channels(c, n, func(_, lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			mu, is := mean[ch], invStd[ch]
			var sdy, sdyx float64
			for bi := range b {
				off := (bi*c + ch) * f
				s, p := sumDyXhat(dy[off:][:f], x[off:][:f], mu, is)
				sdy += s
				sdyx += p
			}
			if dbeta != nil {
				dbeta[ch] = F(sdy)
			}
			if dgamma != nil {
				dgamma[ch] = F(sdyx)
			}
			k := gamma[ch] * is
			a, bb := F(sdy/m), F(sdyx/m)
			for bi := range b {
				off := (bi*c + ch) * f
				xr := x[off:][:f]
				dyr, dxr := dy[off:][:len(xr)], dx[off:][:len(xr)]
				for i := gradVec(dxr, dyr, xr, mu, is, k, a, bb); i < len(xr); i++ {
					dxr[i] = k * (dyr[i] - a - (xr[i]-mu)*is*bb)
				}
			}
		}
	})
}

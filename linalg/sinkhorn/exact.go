package sinkhorn

import "math"

// rowExact does a row half-step from the potentials: alpha[i] = logsumexp_j(x[i,j]*invTau -
// beta[j]) and p[i,j] = exp(x[i,j]*invTau - beta[j] - alpha[i]), with max subtraction. It also
// writes the column sums of p to colSum. tmp is scratch of len n.
func rowExact[T Float](p, x []T, n int, invTau float64, alpha, beta, colSum, tmp []float64) {
	clear(colSum)
	for i := range alpha {
		xr, pr := x[i*n:(i+1)*n], p[i*n:(i+1)*n]
		pr, beta, colSum, tmp := pr[:len(xr)], beta[:len(xr)], colSum[:len(xr)], tmp[:len(xr)]
		mx := math.Inf(-1)
		for j, v := range xr {
			y := float64(v)*invTau - beta[j]
			tmp[j] = y
			mx = max(mx, y)
		}
		for j := range tmp {
			tmp[j] -= mx
		}
		expNegSlice(tmp)
		s := 0.0
		for _, e := range tmp {
			s += e
		}
		alpha[i] = mx + math.Log(s)
		c := 1 / s
		for j, e := range tmp {
			f := e * c
			pr[j] = T(f)
			colSum[j] += f
		}
	}
}

// colExact does a column half-step from the potentials, setting beta[j] = logsumexp_i(x[i,j]*
// invTau - alpha[i]) with max subtraction. It leaves the column-wise shifted exponentials in p
// and 1/their column sums in scale, so that P = p with column j times scale[j]. colMax and tmp
// are scratch of len n.
func colExact[T Float](p, x []T, n int, invTau float64, alpha, beta, scale, colMax, tmp []float64) {
	for j := range colMax {
		colMax[j] = math.Inf(-1)
	}
	for i, a := range alpha {
		xr := x[i*n : (i+1)*n]
		colMax := colMax[:len(xr)]
		for j, v := range xr {
			colMax[j] = max(colMax[j], float64(v)*invTau-a)
		}
	}
	sums := scale
	clear(sums)
	for i, a := range alpha {
		xr, pr := x[i*n:(i+1)*n], p[i*n:(i+1)*n]
		pr, sums, colMax, tmp := pr[:len(xr)], sums[:len(xr)], colMax[:len(xr)], tmp[:len(xr)]
		for j, v := range xr {
			tmp[j] = float64(v)*invTau - a - colMax[j]
		}
		expNegSlice(tmp)
		for j, e := range tmp {
			sums[j] += e
			pr[j] = T(e)
		}
	}
	for j, s := range sums {
		beta[j] = colMax[j] + math.Log(s)
		scale[j] = 1 / s
	}
}

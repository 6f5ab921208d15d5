package draw

import "math"

// Smooth writes into dst the exponential moving average of y with weight alpha on the past,
// debiased as TensorBoard does so that the first points are not pulled towards zero:
// s_t = (alpha s_{t-1} + (1-alpha) y_t) / (1 - alpha^t). alpha = 0 copies y. len(dst) = len(y).
func Smooth(dst, y []float64, alpha float64) {
	var acc, weight float64
	for i, v := range y {
		acc = alpha*acc + (1-alpha)*v
		weight = alpha*weight + (1 - alpha)
		dst[i] = acc / weight
	}
}

// Resample bins the points (x[i], y[i]) (x ascending) into w columns spanning [x0, x1]: column c
// covers [x0 + c dx, x0 + (c+1) dx), the last one closed, with dx = (x1-x0)/w. A column holds
// the mean of its points; empty columns between filled ones are interpolated linearly, and
// those before the first or after the last filled column are NaN. dst has length w.
func Resample(dst, x, y []float64, x0, x1 float64, w int) {
	for c := range dst[:w] {
		dst[c] = math.NaN()
	}
	if w == 0 {
		return
	}
	dx := (x1 - x0) / float64(w)
	var sum float64
	n, col := 0, -1
	flush := func() {
		if n > 0 {
			dst[col] = sum / float64(n)
		}
		sum, n = 0, 0
	}
	for i, xi := range x {
		if math.IsNaN(y[i]) || xi < x0 || xi > x1 {
			continue
		}
		c := w - 1
		if dx > 0 {
			c = min(int((xi-x0)/dx), w-1)
		}
		if c != col {
			flush()
			col = c
		}
		sum += y[i]
		n++
	}
	flush()
	fillGaps(dst[:w])
}

// fillGaps interpolates linearly over the NaN runs of v that lie between two numbers.
func fillGaps(v []float64) {
	prev := -1
	for i, x := range v {
		if math.IsNaN(x) {
			continue
		}
		if prev >= 0 && i-prev > 1 {
			for j := prev + 1; j < i; j++ {
				t := float64(j-prev) / float64(i-prev)
				v[j] = v[prev] + t*(x-v[prev])
			}
		}
		prev = i
	}
}

// Log10All replaces every number of v by its base-10 logarithm, and those at or below zero,
// which a log axis cannot show, by NaN (left out, as the exported figures leave them out).
func Log10All(v []float64) {
	for i, x := range v {
		if x > 0 {
			v[i] = math.Log10(x)
		} else {
			v[i] = math.NaN()
		}
	}
}

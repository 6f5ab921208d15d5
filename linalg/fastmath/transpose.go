package fastmath

// Transpose writes the rows x cols row-major matrix src into dst as its transpose (cols x
// rows), in 16 x 16 tiles: element by element along src's rows, every write to dst falls a
// whole row of dst after the last (1.5 KiB for the GRU's 3H = 384 at H = 128), into a few of
// L1's sets. dst and src must not overlap. The GRU and the LSTM transpose their recurrent
// weights with it once per forward pass.
func Transpose[F float32 | float64](dst, src []F, rows, cols int) {
	const tile = 16
	for r0 := 0; r0 < rows; r0 += tile {
		r1 := min(r0+tile, rows)
		for c0 := 0; c0 < cols; c0 += tile {
			c1 := min(c0+tile, cols)
			for r := r0; r < r1; r++ {
				for c, v := range src[r*cols+c0 : r*cols+c1] {
					dst[(c0+c)*rows+r] = v
				}
			}
		}
	}
}

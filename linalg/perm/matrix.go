package perm

import "fmt"

// ToMatrix writes the n x n row-major permutation matrix of p (n = len(p)) into m (len n*n):
// m[i*n+p[i]] = 1 and every other entry 0.
func ToMatrix[T float32 | float64](m []T, p []int) {
	n := len(p)
	m = m[:n*n]
	clear(m)
	for i, j := range p {
		m[i*n+j] = 1
	}
}

// FromMatrix reads the n x n row-major 0/1 permutation matrix m into p (len n). It returns an
// error if an entry is neither 0 nor 1, or a row or column does not hold exactly one 1;
// p is then unspecified.
func FromMatrix[T float32 | float64](m []T, n int, p []int) error {
	m = m[:n*n]
	p = p[:n]
	for i := range n {
		p[i] = -1
		for j, x := range m[i*n : (i+1)*n] {
			switch {
			case x == 0:
			case x == 1 && p[i] < 0:
				p[i] = j
			case x == 1:
				return fmt.Errorf("perm: row %d has more than one 1", i)
			default:
				return fmt.Errorf("perm: entry (%d, %d) = %v is neither 0 nor 1", i, j, x)
			}
		}
		if p[i] < 0 {
			return fmt.Errorf("perm: row %d has no 1", i)
		}
	}
	// Every row has exactly one 1, so the columns are distinct iff p is a permutation.
	if err := Validate(p); err != nil {
		return fmt.Errorf("perm: a column holds more than one 1: %w", err)
	}
	return nil
}

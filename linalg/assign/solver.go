package assign

import (
	"fmt"
	"math"
)

// Solver holds the workspace for assignment problems up to some size; it grows as needed and
// is not safe for concurrent use. The zero value is ready to use.
type Solver struct {
	n        int
	neg      []float64 // negated or converted costs for Maximize and Round
	u, v     []float64 // dual potentials of rows and columns
	dist     []float64 // shortest path lengths in the current search, by position in todo
	vpos     []float64 // v by position in todo
	path     []int     // path[j]: row from which column j was reached
	col4row  []int
	row4col  []int
	colArg   []int // row attaining each column minimum during initialisation
	todo     []int // columns not yet scanned in the current search, then the scanned ones
	assigned int
}

// grow sizes the workspace for n x n problems, reallocating only when n exceeds what it had.
func (s *Solver) grow(n int) {
	s.n = n
	if cap(s.u) >= n {
		s.u, s.v, s.dist, s.vpos = s.u[:n], s.v[:n], s.dist[:n], s.vpos[:n]
		s.path, s.col4row, s.row4col = s.path[:n], s.col4row[:n], s.row4col[:n]
		s.colArg, s.todo = s.colArg[:n], s.todo[:n]
		return
	}
	s.u, s.v = make([]float64, n), make([]float64, n)
	s.dist, s.vpos = make([]float64, n), make([]float64, n)
	s.path, s.col4row, s.row4col = make([]int, n), make([]int, n), make([]int, n)
	s.colArg, s.todo = make([]int, n), make([]int, n)
}

// negBuf returns the n*n scratch matrix used for negated or converted costs.
func (s *Solver) negBuf(n int) []float64 {
	if cap(s.neg) < n*n {
		s.neg = make([]float64, n*n)
	}
	return s.neg[:n*n]
}

// Minimize writes to rowToCol (len n) the assignment minimising sum_i cost[i*n+rowToCol[i]]
// and returns that sum. cost must be finite: it returns an error naming the first non-finite
// entry (row, column) otherwise, and leaves rowToCol unspecified.
func (s *Solver) Minimize(cost []float64, n int, rowToCol []int) (float64, error) {
	cost = cost[:n*n]
	if err := checkFinite(cost, n); err != nil {
		return 0, err
	}
	s.solve(cost, n, rowToCol)
	return assignedSum(cost, n, rowToCol), nil
}

// Maximize writes to rowToCol (len n) the assignment maximising sum_i cost[i*n+rowToCol[i]]
// and returns that sum. It is Minimize of the negated costs, with the same error for
// non-finite entries.
func (s *Solver) Maximize(cost []float64, n int, rowToCol []int) (float64, error) {
	cost = cost[:n*n]
	neg := s.negBuf(n)
	if err := negate(neg, cost, n); err != nil {
		return 0, err
	}
	s.solve(neg, n, rowToCol)
	return assignedSum(cost, n, rowToCol), nil
}

// checkFinite returns an error naming the first non-finite entry of the n x n matrix c.
func checkFinite(c []float64, n int) error {
	for k, x := range c {
		// x-x is 0 for finite x and NaN for ±Inf and NaN.
		if x-x != 0 {
			return nonFinite(k, n, x)
		}
	}
	return nil
}

// negate writes -src into dst, converting to float64, and reports the first non-finite entry.
func negate[T float32 | float64](dst []float64, src []T, n int) error {
	src = src[:len(dst)]
	for k, x := range src {
		y := float64(x)
		if y-y != 0 {
			return nonFinite(k, n, y)
		}
		dst[k] = -y
	}
	return nil
}

func nonFinite(k, n int, x float64) error {
	return fmt.Errorf("assign: cost (%d, %d) = %v is not finite", k/n, k%n, x)
}

func assignedSum(cost []float64, n int, rowToCol []int) float64 {
	var sum float64
	for i, j := range rowToCol[:n] {
		sum += cost[i*n+j]
	}
	return sum
}

// solve writes the minimum cost assignment of the finite n x n matrix c into rowToCol.
func (s *Solver) solve(c []float64, n int, rowToCol []int) {
	rowToCol = rowToCol[:n]
	if n <= 1 {
		// The reductions below need a second column; one row has one choice anyway.
		if n == 1 {
			rowToCol[0] = 0
		}
		return
	}
	s.grow(n)
	s.initDuals(c)
	for i := 0; i < n && s.assigned < n; i++ {
		if s.col4row[i] < 0 {
			s.augment(c, i)
		}
	}
	copy(rowToCol, s.col4row)
}

// initDuals builds a partial assignment with dual potentials such that every reduced cost
// c[i][j]-u[i]-v[j] is non-negative and the assigned ones are zero, by Jonker and Volgenant's
// column reduction, reduction transfer and two rounds of augmenting row reduction. On random
// costs this matches most rows in O(n^2), leaving few for the O(n^2)-per-row path searches.
func (s *Solver) initDuals(c []float64) {
	n := s.n
	u, v, col4row, row4col, colArg := s.u, s.v, s.col4row, s.row4col, s.colArg
	// Column reduction: v[j] = min_i c[i][j], scanning row-major for locality.
	copy(v, c[:n])
	clear(colArg)
	for i := 1; i < n; i++ {
		for j, x := range c[i*n : (i+1)*n] {
			if x < v[j] {
				v[j] = x
				colArg[j] = i
			}
		}
	}
	for i := range n {
		col4row[i], row4col[i] = -1, -1
	}
	// Each column goes to the row of its minimum if that row is still free.
	s.assigned = 0
	for j := n - 1; j >= 0; j-- {
		if i := colArg[j]; col4row[i] < 0 {
			col4row[i], row4col[j] = j, i
			s.assigned++
		}
	}
	// Reduction transfer: lower v on each assigned column until its row's reduced cost there
	// ties with the row's next best column, which keeps the column the row's minimum but
	// makes it dearer to the other rows.
	free := s.colArg[:0] // colArg is spent; reuse it for the free rows
	for i := range n {
		j1 := col4row[i]
		if j1 < 0 {
			free = append(free, i)
			continue
		}
		ci := c[i*n : (i+1)*n]
		mu := math.Inf(1)
		for j, x := range ci {
			if j != j1 {
				mu = min(mu, x-v[j])
			}
		}
		v[j1] -= mu
	}
	for range rowReductionPasses {
		free = s.rowReduction(c, free)
	}
	// u[i] is each row's minimum reduced cost, attained on its column if it has one.
	for i := range n {
		if j := col4row[i]; j >= 0 {
			u[i] = c[i*n+j] - v[j]
			continue
		}
		best := math.Inf(1)
		for j, x := range c[i*n : (i+1)*n] {
			best = min(best, x-v[j])
		}
		u[i] = best
	}
}

// Augmenting row reduction settings, tuned on uniform random costs for n = 20..200: two
// passes as in Jonker and Volgenant, but at most rowReductionBudget row steps per free row and
// pass, since beyond that the eviction chains cost more than shortest path searches.
const (
	rowReductionPasses = 2
	rowReductionBudget = 4
)

// rowReduction is Jonker and Volgenant's augmenting row reduction. Each row in free takes the
// column j1 of its smallest reduced cost c[i][j]-v[j] and lowers v[j1] until that ties with
// its second smallest, evicting j1's previous row. Every assigned row keeps its column at its
// row minimum. Evicted rows are retried at once when v[j1] moved, and otherwise (ties) returned
// in the new free list, which it writes over free and returns, as are the rows left when the
// step budget runs out (which also guarantees termination under ties).
func (s *Solver) rowReduction(c []float64, free []int) []int {
	n := s.n
	v, col4row, row4col := s.v, s.col4row, s.row4col
	next := 0
	budget := rowReductionBudget * len(free)
	for cur, iter := 0, 0; cur < len(free); iter++ {
		if iter >= budget {
			// Long eviction chains cost O(n) per step; leave the rest to the path searches.
			next += copy(free[next:], free[cur:])
			break
		}
		i := free[cur]
		cur++
		ci := c[i*n : (i+1)*n]
		v1, j1 := ci[0]-v[0], 0
		v2, j2 := math.Inf(1), -1
		for j := 1; j < n; j++ {
			r := ci[j] - v[j]
			if r < v2 {
				if r >= v1 {
					v2, j2 = r, j
				} else {
					v2, j2 = v1, j1
					v1, j1 = r, j
				}
			}
		}
		i0 := row4col[j1]
		if v2 > v1 {
			// Lower v[j1] so that j1 stays (one of) row i's minima at the second smallest
			// cost; the evicted row is retried at once against the new v.
			v[j1] -= v2 - v1
			if i0 >= 0 {
				cur--
				free[cur] = i0
			}
		} else {
			// A tie, where v cannot move: if j1 is taken, take j2 instead (equally cheap,
			// perhaps free), and leave any evicted row to the next pass.
			if i0 >= 0 {
				j1, i0 = j2, row4col[j2]
			}
			if i0 >= 0 {
				free[next] = i0
				next++
			}
		}
		if i0 >= 0 {
			col4row[i0] = -1
		} else {
			s.assigned++
		}
		col4row[i], row4col[j1] = j1, i
	}
	return free[:next]
}

// augment finds a shortest augmenting path from the free row cur in the reduced costs
// (Dijkstra over columns), flips it so that cur becomes assigned, and updates the duals to
// keep every reduced cost non-negative and the assigned ones zero.
func (s *Solver) augment(c []float64, cur int) {
	n := s.n
	u, v, path := s.u, s.v, s.path
	col4row, row4col := s.col4row, s.row4col
	// Columns are kept in todo with their distance and v at the same position, so the scan
	// reads those sequentially; todo[:rem] are unscanned, todo[rem:] scanned.
	todo, dist, vpos := s.todo, s.dist, s.vpos
	for j := range n {
		todo[j] = j
		dist[j] = math.Inf(1)
		vpos[j] = v[j]
	}
	rem := n
	minVal := 0.0
	i := cur
	sink := -1
	for sink < 0 {
		ci := c[i*n : (i+1)*n]
		h := minVal - u[i]
		lowest, index := math.Inf(1), -1
		cols := todo[:rem]
		dp, vp := dist[:len(cols)], vpos[:len(cols)]
		for k, j := range cols {
			d := dp[k]
			if r := h + ci[j] - vp[k]; r < d {
				d = r
				dp[k] = r
				path[j] = i
			}
			// Among equally short columns prefer a free one: it ends the search now, which
			// matters for integer costs with many ties.
			if d < lowest || (d == lowest && row4col[j] < 0) {
				lowest, index = d, k
			}
		}
		minVal = lowest
		j := todo[index]
		if row4col[j] < 0 {
			sink = j
		} else {
			i = row4col[j]
		}
		rem--
		todo[index], todo[rem] = todo[rem], j
		dist[index], dist[rem] = dist[rem], dist[index]
		vpos[index], vpos[rem] = vpos[rem], vpos[index]
	}

	// Dual update over the scanned columns and their rows (the sink's change is zero).
	u[cur] += minVal
	for k, j := range todo[rem:] {
		delta := minVal - dist[rem+k]
		v[j] -= delta
		if j != sink {
			u[row4col[j]] += delta
		}
	}
	// Flip the path back from the sink to cur.
	for j := sink; ; {
		i := path[j]
		row4col[j] = i
		col4row[i], j = j, col4row[i]
		if i == cur {
			break
		}
	}
	s.assigned++
}

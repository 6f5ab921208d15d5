package assign

import (
	"fmt"
	"math"
	"sync"

	"spg-tui/linalg/parallel"
)

// Round writes the permutation P maximising trace(P^T M) = sum_i m[i*n+perm[i]] for one n x n
// matrix m: perm[i] = j where P[i][j] = 1. It returns an error naming the first non-finite
// entry of m, leaving perm unspecified.
func Round[T float32 | float64](s *Solver, m []T, n int, perm []int) error {
	neg := s.negBuf(n)
	if err := negate(neg, m[:n*n], n); err != nil {
		return err
	}
	s.solve(neg, n, perm)
	return nil
}

// RoundLog writes the permutation maximising sum_i log m[i*n+perm[i]] (the product of the
// chosen entries) for one n x n matrix m of non-negative entries; zeros count as the smallest
// positive float32. For a Sinkhorn layer's output m = exp(S^L(X/tau)), log m is X/tau plus a
// constant per row and per column, which no permutation's sum depends on: this is the Hungarian
// maximum of the scores X at any L and tau, where Round's maximum of the sum of m is not (a row
// spread over many columns counts for little in it). It returns an error naming the first
// negative or non-finite entry of m.
func RoundLog[T float32 | float64](s *Solver, m []T, n int, perm []int) error {
	neg := s.negBuf(n)
	for k, x := range m[:n*n] {
		y := float64(x)
		if y-y != 0 || y < 0 {
			return fmt.Errorf("assign: entry (%d, %d) = %v is not a finite number >= 0", k/n, k%n, y)
		}
		neg[k] = -math.Log(max(y, math.SmallestNonzeroFloat32))
	}
	s.solve(neg, n, perm)
	return nil
}

// solverPool keeps Solvers, with their grown workspaces, between RoundBatch calls. Unlike a
// sync.Pool it is not emptied by garbage collections, so steady-state batches never regrow
// workspaces; it holds at most as many Solvers as batches ever ran at once.
var solverPool struct {
	sync.Mutex
	free []*Solver
}

func getSolver() *Solver {
	solverPool.Lock()
	defer solverPool.Unlock()
	if k := len(solverPool.free); k > 0 {
		s := solverPool.free[k-1]
		solverPool.free = solverPool.free[:k-1]
		return s
	}
	return new(Solver)
}

func putSolver(s *Solver) {
	solverPool.Lock()
	solverPool.free = append(solverPool.free, s)
	solverPool.Unlock()
}

// RoundBatch rounds b matrices, m[k*n*n:(k+1)*n*n] into perms[k*n:(k+1)*n] for k < b, as Round
// does, splitting the batch over all cores with parallel.For and one pooled Solver per worker.
// If some matrices hold non-finite entries it returns the error of the first of them (the
// others are still rounded) and leaves their permutations unspecified.
func RoundBatch[T float32 | float64](m []T, b, n int, perms []int) error {
	return roundBatch(m, b, n, perms, Round[T])
}

// RoundBatchLog rounds b matrices as RoundLog does, in parallel as RoundBatch does.
func RoundBatchLog[T float32 | float64](m []T, b, n int, perms []int) error {
	return roundBatch(m, b, n, perms, RoundLog[T])
}

// RoundBatchBy rounds b matrices as RoundBatchLog does with byLog, else as RoundBatch does: one
// call for the callers that carry the choice as a setting.
func RoundBatchBy[T float32 | float64](m []T, b, n int, perms []int, byLog bool) error {
	if byLog {
		return RoundBatchLog(m, b, n, perms)
	}
	return RoundBatch(m, b, n, perms)
}

// roundBatch splits the batch over the cores with one pooled Solver per worker and rounds each
// matrix with round.
func roundBatch[T float32 | float64](m []T, b, n int, perms []int, round func(*Solver, []T, int, []int) error) error {
	m, perms = m[:b*n*n], perms[:b*n]
	var (
		mu       sync.Mutex
		firstBad = b
		firstErr error
	)
	parallel.For(b, func(_, lo, hi int) {
		s := getSolver()
		defer putSolver(s)
		for k := lo; k < hi; k++ {
			err := round(s, m[k*n*n:(k+1)*n*n], n, perms[k*n:(k+1)*n])
			if err == nil {
				continue
			}
			mu.Lock()
			if k < firstBad {
				firstBad, firstErr = k, err
			}
			mu.Unlock()
		}
	})
	if firstErr != nil {
		return fmt.Errorf("matrix %d: %w", firstBad, firstErr)
	}
	return nil
}

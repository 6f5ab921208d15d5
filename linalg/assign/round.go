package assign

import (
	"fmt"
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
			err := Round(s, m[k*n*n:(k+1)*n*n], n, perms[k*n:(k+1)*n])
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

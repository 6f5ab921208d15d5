package envs

import (
	"fmt"
	"math"
	"runtime"

	"spg-tui/sysmem"
)

// solverMemory estimates the bytes one solve of an instance of e takes: a few n-vectors, plus
// what the task says the solver needs (Facts.SolverBytes). Overflow saturates.
func solverMemory(e Env, solver string) int64 {
	n := float64(e.N())
	b := 64 * n
	if extra := MustFacts(e.Task()).SolverBytes; extra != nil {
		b += extra(solver, n)
	}
	if b >= math.MaxInt64 {
		return -1
	}
	return int64(b)
}

// checkSolveMemory refuses to solve count instances of e when the solves running at once (one
// per core) would not fit in memory.
func checkSolveMemory(e Env, solver string, count int) error {
	per := solverMemory(e, solver)
	workers := int64(min(runtime.GOMAXPROCS(0), max(count, 1)))
	need := per * workers
	if per < 0 || need/workers != per {
		need = -1
	}
	return sysmem.Check(fmt.Sprintf("solver %s on %s n = %d (%d at once)", solver, e.Task(), e.N(), workers), need)
}

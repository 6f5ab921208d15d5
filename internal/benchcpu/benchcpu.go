// Package benchcpu reports a benchmark's CPU time per op over all of the process's threads: on
// a shared machine a steadier measure of the work than the wall time.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// Clock is the process's CPU time when a benchmark's timed loop began.
type Clock time.Duration

// Start reads the process's CPU time.
func Start() Clock { return Clock(processTime()) }

// Report reports the CPU time since c per op, as cpu-ms/op.
func (c Clock) Report(b *testing.B) {
	b.ReportMetric((processTime()-time.Duration(c)).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// processTime is the process's user and system CPU time so far (0 where it cannot be read).
func processTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

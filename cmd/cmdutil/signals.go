package cmdutil

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// stopSignals are the signals that stop a training run or an experiment with a checkpoint:
// SIGINT, SIGTERM and SIGHUP (a closed terminal or a logged-out session).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// exitNow ends the process at once; a variable so that no test of follow's callers can end the
// test binary by accident.
var exitNow = os.Exit

// watchStops delivers stop signals on the returned channel and makes a write to a closed
// standard output fail with EPIPE (which follow handles) instead of killing the process. The
// returned function undoes both.
func watchStops() (<-chan os.Signal, func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	signal.Ignore(syscall.SIGPIPE)
	return sigs, func() {
		signal.Stop(sigs)
		signal.Reset(syscall.SIGPIPE)
	}
}

// StopOnSignals handles the stop signals until done is closed: the first calls stop (the work
// checkpoints and ends), one after that, or after stopping was set by another cause, ends the
// process at once with signalStatus. Both say so on stderr, prefixed by cmd; what says what
// stopping does. The returned function stops the handling.
func StopOnSignals(cmd, what string, stderr io.Writer, stopping *atomic.Bool, stop func(), done <-chan struct{}) func() {
	sigs, unwatch := watchStops()
	go func() {
		for {
			select {
			case s := <-sigs:
				if stopping.Swap(true) {
					// A second signal: the user will not wait for the checkpoint.
					fmt.Fprintf(stderr, "%s: %v while stopping: exiting at once, without a checkpoint\n", cmd, s)
					exitNow(signalStatus(s))
				}
				fmt.Fprintf(stderr, "%s: %v: stopping: %s (signal again to exit at once)\n", cmd, s, what)
				stop()
			case <-done:
				return
			}
		}
	}()
	return unwatch
}

// signalStatus is the conventional exit status of a process ended by sig: 128 + its number.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGTERM)
}

// ForwardHangup turns a SIGHUP into a SIGTERM to this process, for the console: bubbletea stops
// on SIGTERM (the console then checkpoints its run) but does not watch SIGHUP. The returned
// function stops forwarding.
func ForwardHangup() func() {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-hup:
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}

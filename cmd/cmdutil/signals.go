package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"spg-tui/run"
)

// Exit statuses of a training run that did not end by itself.
const (
	// exitStdoutClosed ends a run whose standard output was closed (train --json | head): 128 +
	// SIGPIPE, what a shell expects of a pipeline member that lost its reader.
	exitStdoutClosed = 128 + int(syscall.SIGPIPE)
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

// stopOnSignals handles the stop signals until done is closed: the first calls stop (the work
// checkpoints and ends), one after that, or after stopping was set by another cause, ends the
// process at once with signalStatus. Both say so on stderr, prefixed by cmd; what says what
// stopping does. The returned function stops the handling.
func stopOnSignals(cmd, what string, stderr io.Writer, stopping *atomic.Bool, stop func(), done <-chan struct{}) func() {
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

// forwardHangup turns a SIGHUP into a SIGTERM to this process, for the console: bubbletea stops
// on SIGTERM (the console then checkpoints its run) but does not watch SIGHUP. The returned
// function stops forwarding.
func forwardHangup() func() {
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

// runErrorStatus is the exit status of an error that prevented a run from starting: 2 for bad
// input (flags, a run directory in use, of another run or damaged: a file in it refused as not
// regular or past its bound), 1 for a failure to read or write files that exist (an I/O error
// is not the user's input).
func runErrorStatus(err error) int {
	var locked *run.DirLockedError
	var refused *run.RefusedFileError
	if errors.As(err, &locked) || errors.As(err, &refused) {
		return exitUsage
	}
	var pathErr *fs.PathError
	var errno syscall.Errno
	if !errors.Is(err, fs.ErrNotExist) && (errors.As(err, &pathErr) || errors.As(err, &errno)) {
		return exitFailed
	}
	return exitUsage
}

package main

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"spg-tui/run"
)

// Exit statuses of a training run that did not end by itself.
const (
	// exitStdoutClosed ends a run whose standard output was closed (train --json | head): 128 +
	// SIGPIPE, what a shell expects of a pipeline member that lost its reader.
	exitStdoutClosed = 128 + int(syscall.SIGPIPE)
)

// stopSignals are the signals that stop a training run with a checkpoint: SIGINT, SIGTERM and
// SIGHUP (a closed terminal or a logged-out session).
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
// input (flags, a run directory in use or of another run), 1 for a failure to read or write
// files that exist (an I/O error is not the user's input).
func runErrorStatus(err error) int {
	var locked *run.DirLockedError
	if errors.As(err, &locked) {
		return exitUsage
	}
	var pathErr *fs.PathError
	var errno syscall.Errno
	if !errors.Is(err, fs.ErrNotExist) && (errors.As(err, &pathErr) || errors.As(err, &errno)) {
		return exitFailed
	}
	return exitUsage
}

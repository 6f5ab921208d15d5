package gpulayers

import (
	"fmt"
	"math"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/sinkhorn"
)

// MaxSinkhornN is the largest n the Sinkhorn kernels take (their potentials are static shared
// arrays).
const MaxSinkhornN = 256

// sinkhornBlock is the Sinkhorn kernels' block: one thread per row or column for n <= 128.
const sinkhornBlock = 128

// checkSinkhorn returns an error for sizes the kernels do not take.
func checkSinkhorn(op string, b, n int, tau float32, iters int) error {
	switch {
	case b < 0:
		return fmt.Errorf("%s: b = %d, want >= 0", op, b)
	case n < 1 || n > MaxSinkhornN:
		return fmt.Errorf("%s: n = %d, want 1..%d", op, n, MaxSinkhornN)
	case !(tau > 0) || math.IsInf(float64(tau), 1):
		return fmt.Errorf("%s: tau = %v, want a finite tau > 0", op, tau)
	case iters < 1:
		return fmt.Errorf("%s: iters = %d, want >= 1", op, iters)
	}
	return nil
}

// SinkhornForward writes M = exp(S^iters(X/tau)) for b matrices of n x n (m and x hold b*n*n)
// as sinkhorn.Forward does. saved, sinkhorn.SavedLen(b, n, iters) long, receives what
// SinkhornBackward needs; a saved of length 0 skips it (inference). m must not overlap x or
// saved.
func SinkhornForward(dev cuda.Device, m, x, saved cuda.Buf, b, n int, tau float32, iters int) error {
	const op = "SinkhornForward"
	if err := checkSinkhorn(op, b, n, tau, iters); err != nil {
		return err
	}
	var err error
	if m, err = need(op, "m", m, b*n*n); err != nil {
		return err
	}
	if x, err = need(op, "x", x, b*n*n); err != nil {
		return err
	}
	save := int32(0)
	if saved.N > 0 {
		if saved, err = need(op, "saved", saved, sinkhorn.SavedLen(b, n, iters)); err != nil {
			return err
		}
		save = 1
	} else {
		saved = m // not written: the kernel needs a pointer
	}
	if b == 0 {
		return nil
	}
	return dev.Launch("sinkhorn_forward", cuda.D1(b), cuda.D1(sinkhornBlock), m, x, saved, i32(n), tau, i32(iters), save)
}

// SinkhornBackward writes dX (b*n*n) given dM and the saved buffer of a SinkhornForward (or of
// a sinkhorn.Forward on the CPU, uploaded) with the same b, n, tau and iters, as
// sinkhorn.Backward does. dx must not overlap dm or saved.
func SinkhornBackward(dev cuda.Device, dx, dm, saved cuda.Buf, b, n int, tau float32, iters int) error {
	const op = "SinkhornBackward"
	if err := checkSinkhorn(op, b, n, tau, iters); err != nil {
		return err
	}
	var err error
	if dx, err = need(op, "dx", dx, b*n*n); err != nil {
		return err
	}
	if dm, err = need(op, "dm", dm, b*n*n); err != nil {
		return err
	}
	if saved, err = need(op, "saved", saved, sinkhorn.SavedLen(b, n, iters)); err != nil {
		return err
	}
	if b == 0 {
		return nil
	}
	return dev.Launch("sinkhorn_backward", cuda.D1(b), cuda.D1(sinkhornBlock), dx, dm, saved, i32(n), tau, i32(iters))
}

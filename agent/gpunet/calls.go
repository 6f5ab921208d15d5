package gpunet

import (
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/gru"
)

// The layers of linalg/cuda/gpulayers this package composes, in one place.

func sinkhornForward(dev cuda.Device, m, x, saved cuda.Buf, b, n int, tau float32, iters int) error {
	return gpulayers.SinkhornForward(dev, m, x, saved, b, n, tau, iters)
}

func sinkhornBackward(dev cuda.Device, dx, dm, saved cuda.Buf, b, n int, tau float32, iters int) error {
	return gpulayers.SinkhornBackward(dev, dx, dm, saved, b, n, tau, iters)
}

// gruWorkLen is the scratch a GRU of d needs on the device.
func gruWorkLen(d gru.Dims) int { return gpulayers.GRUWorkLen(d) }

// gruForward runs the GRU forward in time from a zero state.
func gruForward(dev cuda.Device, d gru.Dims, out, x, wih, whh, bih, bhh, saved, work cuda.Buf) error {
	return gpulayers.GRUForward(dev, d, out, x, cuda.Buf{}, wih, whh, bih, bhh, saved, work, false)
}

// gruBackward overwrites dx and the weight gradients (the zero initial state's is not wanted).
func gruBackward(dev cuda.Device, d gru.Dims, dx, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work cuda.Buf) error {
	return gpulayers.GRUBackward(dev, d, dx, cuda.Buf{}, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work, false)
}

// bnForward is batch norm with batch statistics, then LeakyReLU.
func bnForward(dev cuda.Device, y, x, gamma, beta, mean, invStd cuda.Buf, b, c, f int) error {
	return gpulayers.BatchNormForward(dev, y, x, gamma, beta, mean, invStd, b, c, f, slope)
}

// bnBackward takes dy back through bnForward (y its output); zero-length dgamma and dbeta
// skip their gradients.
func bnBackward(dev cuda.Device, dx, dgamma, dbeta, dy, x, y, gamma, mean, invStd cuda.Buf, b, c, f int) error {
	return gpulayers.BatchNormBackward(dev, dx, dgamma, dbeta, dy, x, y, gamma, mean, invStd, b, c, f, slope)
}

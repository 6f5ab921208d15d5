// Package layers runs the layers of spg-tui's models on a cuda.Device: one file per layer, each
// a forward and backward pair over explicit buffers (the caller allocates activations, saved
// state and gradients once), composed of the kernels of linalg/cuda/kernels and the device's
// matrix products. Each function checks its sizes against the buffers and returns a one-line
// error naming what is wrong; the numbers match the CPU packages (linalg/sinkhorn, linalg/gru,
// ...) within float32 rounding, which the tests check on the emulator (linalg/cuda/emu).
package gpulayers

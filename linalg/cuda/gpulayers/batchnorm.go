package gpulayers

import (
	"fmt"

	"spg-tui/linalg/batchnorm"
	"spg-tui/linalg/cuda"
)

// Batch normalisation as agent/ops' BatchNorm node: linalg/batchnorm over (b, c, f) with eps
// batchnorm.DefaultEps, followed by LeakyReLU with slope (1 for none, as ops.Identity).

// bnBlock is the training kernels' block: one block per channel.
const bnBlock = 256

// checkBN returns an error for non-positive dimensions.
func checkBN(op string, b, c, f int) error {
	if b <= 0 || c <= 0 || f <= 0 {
		return fmt.Errorf("%s: dimensions must be positive, got b = %d, c = %d, f = %d", op, b, c, f)
	}
	return nil
}

// BatchNormForward normalises x (b, c, f) into y with the batch statistics and applies
// LeakyReLU with slope, writing mean and invStd (c each) for BatchNormBackward and
// BatchNormUpdateRunning.
func BatchNormForward(dev cuda.Device, y, x, gamma, beta, mean, invStd cuda.Buf, b, c, f int, slope float32) error {
	const op = "BatchNormForward"
	if err := checkBN(op, b, c, f); err != nil {
		return err
	}
	n := b * c * f
	bs, err := bufs(op, "y", y, n, "x", x, n, "gamma", gamma, c, "beta", beta, c, "mean", mean, c, "invStd", invStd, c)
	if err != nil {
		return err
	}
	return dev.Launch("batchnorm_forward", cuda.D1(c), cuda.D1(bnBlock), bs[0], bs[1], bs[2], bs[3], bs[4], bs[5],
		i32(b), i32(c), i32(f), float32(batchnorm.DefaultEps), slope)
}

// BatchNormInference normalises x (b, c, f) into y with the running statistics and applies
// LeakyReLU with slope.
func BatchNormInference(dev cuda.Device, y, x, gamma, beta, runMean, runVar cuda.Buf, b, c, f int, slope float32) error {
	const op = "BatchNormInference"
	if err := checkBN(op, b, c, f); err != nil {
		return err
	}
	n := b * c * f
	bs, err := bufs(op, "y", y, n, "x", x, n, "gamma", gamma, c, "beta", beta, c, "runMean", runMean, c, "runVar", runVar, c)
	if err != nil {
		return err
	}
	return dev.Launch("batchnorm_inference", grid1(n, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], bs[2], bs[3], bs[4], bs[5],
		i32(b), i32(c), i32(f), float32(batchnorm.DefaultEps), slope)
}

// BatchNormBackward computes the gradients through BatchNormForward (and its LeakyReLU) given
// dy: it overwrites dx and, unless both have length 0 (gamma and beta frozen), dgamma and
// dbeta. y is the forward output, x, gamma, mean and invStd its inputs and statistics. dx may
// be dy.
func BatchNormBackward(dev cuda.Device, dx, dgamma, dbeta, dy, x, y, gamma, mean, invStd cuda.Buf, b, c, f int, slope float32) error {
	const op = "BatchNormBackward"
	if err := checkBN(op, b, c, f); err != nil {
		return err
	}
	n := b * c * f
	params := int32(1)
	if dgamma.N == 0 && dbeta.N == 0 {
		params, dgamma, dbeta = 0, mean, mean // not written: the kernel needs pointers
	}
	bs, err := bufs(op, "dx", dx, n, "dgamma", dgamma, c, "dbeta", dbeta, c, "dy", dy, n, "x", x, n, "y", y, n,
		"gamma", gamma, c, "mean", mean, c, "invStd", invStd, c)
	if err != nil {
		return err
	}
	return dev.Launch("batchnorm_backward", cuda.D1(c), cuda.D1(bnBlock), bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7], bs[8],
		i32(b), i32(c), i32(f), slope, params)
}

// BatchNormUpdateRunning folds the statistics of the last BatchNormForward (count = b*f values
// per channel, at least 2) into runMean and runVar, as batchnorm.UpdateRunning.
func BatchNormUpdateRunning(dev cuda.Device, runMean, runVar, mean, invStd cuda.Buf, c, count int, momentum float32) error {
	const op = "BatchNormUpdateRunning"
	if c <= 0 || count < 2 {
		return fmt.Errorf("%s: c = %d and count = %d, want c > 0 and count >= 2", op, c, count)
	}
	bs, err := bufs(op, "runMean", runMean, c, "runVar", runVar, c, "mean", mean, c, "invStd", invStd, c)
	if err != nil {
		return err
	}
	return dev.Launch("batchnorm_update_running", grid1(c, elementBlock), cuda.D1(elementBlock), bs[0], bs[1], bs[2], bs[3],
		i32(c), i32(count), momentum, float32(batchnorm.DefaultEps))
}

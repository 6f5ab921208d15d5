// Package fastmath has fast float32 kernels for the hot elementwise loops of training: e^x, the
// logistic sigmoid and tanh (scalars and slice kernels), LeakyReLU with its gradient, and the
// GRU cell's fused gate arithmetic forward and backward (GRUGates, GRUGatesBackward), which
// live here because they share the vector sigmoid and tanh; and the tiled matrix Transpose the
// recurrent layers use on their weights.
//
// The scalars are Cephes' single-precision algorithms (a few ulp). The slice kernels compute
// the same functions; on amd64 CPUs with AVX2 and FMA they run eight lanes at a time in
// assembly (the Go compiler does not vectorise), elsewhere, and with the build tag noasm, in
// plain Go. Results may differ from the scalars in the last bit or two (fused multiply-adds),
// never by more than the documented accuracy.
package fastmath

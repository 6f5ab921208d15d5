// Package sinkhorn implements the batched, temperature-controlled Sinkhorn layer of
// Sinkhorn Policy Gradient: M = exp(S^L(X/tau)), computed stably in the log domain, and the
// exact vector-Jacobian product through all L iterations.
//
// One iteration normalises the rows and then the columns of the log-iterate z:
//
//	z = z - logsumexp_j(z)   (rows)
//	z = z - logsumexp_i(z)   (columns)
//
// starting from z = X/tau; M = exp(z) after L iterations, so every column of M sums to 1.
//
// The forward pass works on P = exp(z) scaled by the line sums, and only falls back to computing
// exponentials from the log-domain potentials when the scaling could have amplified an
// underflowed entry (see forward.go). The result matches a pure log-domain evaluation to
// rounding for all finite inputs, while typically costing one exponential per entry instead of
// one per entry and half-step. The backward pass needs no exponentials at all.
package sinkhorn

// Package layers holds the fused ops of the networks' learned layers, each one gorgonia node over
// a plain-Go kernel (see agent/ops): Dense and its activations, BatchedProduct, BatchNorm,
// AddScaled (a learned step), BarDiagonal and the Sinkhorn layer that turns an actor's scores
// into a doubly stochastic matrix.
package layers

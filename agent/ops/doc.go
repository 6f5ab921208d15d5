// Package ops bridges fused layer kernels (plain Go forward and backward passes over slices) into
// gorgonia graphs, so that a whole GRU over a sequence, a Sinkhorn layer or a batch norm is one
// graph node with correct symbolic differentiation instead of hundreds of primitive nodes. The
// ops themselves live in the subpackages, which build on this one: layers (Dense, batch norm,
// Sinkhorn, ...), seq (GRU, self-attention) and pairops (the networks' pair and graph input
// features).
//
// Apply turns a Kernel into a node. Its symbolic derivative is one backward node that runs the
// kernel's Backward once per run and yields the gradient of the first differentiable input; the
// other differentiable inputs get a cheap node each that reads their gradient from the same
// backward pass. StopGradient is the identity with no derivative, RoundStraightThrough the
// Hungarian rounding with the identity as its derivative, Rows a slice of rows.
//
// Subpackage gradcheck checks a graph's gradients against finite differences.
//
// Graphs must be run by a TapeMachine (gorgonia's LispMachine re-runs nodes in ways that break
// per-run state). Ops keep their forward state and output buffers between runs, so a graph must
// not be run by two machines at the same time.
package ops

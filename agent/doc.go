// Package agent is the SPG learner: the SPG+Matching and SPG+Sequential actor-critic networks as
// gorgonia graphs over fused kernels, the training loop of the paper's Algorithm 1, its replay
// buffer, live control, metrics and checkpoints.
package agent

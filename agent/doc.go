// Package agent is the learners: the SPG+Matching and SPG+Sequential actor-critic networks as
// gorgonia graphs over fused kernels, the training loop of the paper's Algorithm 1, its replay
// buffer, live control, metrics and checkpoints; and the critic-free baselines of the paper's
// tables (PN-AC, PN-AC+Matching, AC+Matching: plain-Go networks over linalg/lstm and
// linalg/pointer trained by REINFORCE in the same loop; SPG+Random, the untrained SPG actor).
package agent

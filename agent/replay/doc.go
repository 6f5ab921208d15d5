// Package replay is the bounded replay buffer of Algorithm 1 (Buffer): transitions (s, M, P, r)
// stored compactly off the Go heap, sampled uniformly, and written to and read from the replay
// section of a checkpoint.
package replay

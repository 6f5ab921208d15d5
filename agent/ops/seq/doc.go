// Package seq holds the fused ops over a sequence or a set of items, each one gorgonia node over
// a plain-Go kernel (see agent/ops): GRU and BiGRU over a whole sequence, and multi-head
// SelfAttention.
package seq

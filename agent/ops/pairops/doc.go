// Package pairops holds the fused ops that build the networks' inputs from an instance, each one
// gorgonia node over a plain-Go kernel (see agent/ops): the per-pair features (PairFeatures over
// linalg/pairs, PairDistances, PairOuter, SortValues), centring, and the graph features of graph
// matching (RowMean, GraphPairFeatures, WithNeighbourMeans, ClosedWalks).
package pairops

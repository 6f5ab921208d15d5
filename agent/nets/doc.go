// Package nets is the networks of every model, one file per model, each registered by name:
// the SPG models' actor and critic (Arch: SPG+Matching and SPG+Sequential of the paper,
// SPG+Pairwise, SPG+Factored and SPG+GM) as builders of gorgonia graph nodes over named
// parameters (Params), and the critic-free models' policy networks (PolicyNet: PN-AC,
// PN-AC+Matching, AC+Matching) in plain Go over linalg/lstm and linalg/pointer. It also holds
// the state featurisation the networks read and the FLOP count of a training step. Package
// agent trains them.
package nets

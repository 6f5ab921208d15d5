// Package pointer implements the decoding step of a pointer network (Vinyals et al. 2015, as
// used by Bello et al. 2016) as forward/backward kernels over caller-provided buffers.
//
// Scores are additive attention over the input elements: for decoder step t and element j,
//
//	u[t][j] = v . tanh(ref[j] + q[t])
//
// where ref = enc Wref and q = dec Wq are the caller's projections (GEMMs). The policy over the
// elements at step t is the softmax of the clipped logits C tanh(u[t][j]) (Bello et al.'s
// "logit clipping", C = 10; C = 0 leaves u unclipped) over the elements not yet chosen: a step's
// mask is the actions of the steps before it in the same row, so nothing is chosen twice.
// LogProbs scores given actions (teacher forcing, the REINFORCE update); RowProbs is one step's
// distribution, for sampling and greedy decoding.
//
// Matrices are dense row-major slices: ref is (B, N, H), q is (B, T, H), u and probs are
// (B, T, N), actions and logp are (B, T) with T <= N.
package pointer

// Package learn is the learners: the SPG learner (the actor-critic networks of agent/nets as
// gorgonia graphs, Algorithm 1's losses and Adam updates) and its GPU twins over agent/gpunet,
// the critic-free REINFORCE learner that trains agent/nets' policy networks (PN-AC,
// PN-AC+Matching, AC+Matching), SPG+Random (the untrained SPG actor), and NewLearner beside the
// Learner interface. Hyper is all a learner reads of a run at a step (HyperAt computes it); the
// action decoder turns a rounded action into the task's permutation. It knows nothing of runs,
// checkpoints or evaluation, which build on it.
package learn

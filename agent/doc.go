// Package agent is the learners and their training: the SPG learner (the actor-critic networks
// of agent/nets as gorgonia graphs, Algorithm 1's losses and updates), the critic-free REINFORCE
// learner that trains agent/nets' policy networks (PN-AC, PN-AC+Matching, AC+Matching) in the
// same loop, SPG+Random (the untrained SPG actor), NewLearner beside the Learner interface; the
// training loop of the paper's Algorithm 1 over agent/replay's buffer, its live control,
// metrics, evaluation and checkpoints.
package agent

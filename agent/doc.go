// Package agent is the training of the learners (agent/learn): the trainer, a run.Engine that
// runs the training loop of the paper's Algorithm 1 over agent/replay's buffer with its live
// control, metrics, validations (agent/eval) and checkpoints (agent/checkpoint), resumes runs
// exactly, starts one from another run's actor (--init), and times steps (Bench).
package agent

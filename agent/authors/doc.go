// Package authors imports the authors' published SPG+Matching actor: their PyTorch state dict
// exported to .npz (read by its own small .npy reader) becomes a run directory with a fresh
// critic, evaluated on the run's validation and test sets, that eval, the console's view and
// train --init read like a trained run's.
package authors

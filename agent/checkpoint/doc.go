// Package checkpoint is a run's saved state: the checkpoint file (a JSON header, the learner's
// bytes and the replay buffer, each section checksummed so that a damaged file is refused
// rather than half-loaded), the identity that ties a checkpoint to its run directory, and the
// logging interval it carries so that a resumed run logs what an uninterrupted one does. The
// trainer writes and resumes checkpoints; evaluation, --init and import read or write them.
package checkpoint

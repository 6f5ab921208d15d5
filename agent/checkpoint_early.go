package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"spg-tui/agent/checkpoint"
	"spg-tui/run"
)

// checkpointEarlyIfNone writes an early checkpoints/last when the run has none yet, so that a
// run killed before its first full checkpoint (which waits for a validation at least
// checkpointEvery into the run) can still be resumed.
func (t *trainer) checkpointEarlyIfNone() error {
	_, err := os.Stat(filepath.Join(t.dir, run.LastCheckpoint))
	if err == nil {
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return t.checkpointEarly()
}

// checkpointEarly writes checkpoints/last without the replay buffer: the learner, the generator
// and the schedule, a small file written in milliseconds. Until the first full checkpoint it is
// refreshed at every validation. A resume from it starts with an empty buffer, which the next
// steps refill, so it continues the run but not bit for bit as the full checkpoint would.
func (t *trainer) checkpointEarly() error {
	params, err := t.core.learner.MarshalBinary()
	if err != nil {
		return err
	}
	h := t.header(true)
	h.ReplayOmitted = true
	if err := checkpoint.Write(filepath.Join(t.dir, run.LastCheckpoint), h, params, nil); err != nil {
		return fmt.Errorf("writing the early checkpoint: %w", err)
	}
	t.early = true
	t.event(&run.Event{Event: run.EventCheckpoint, Message: fmt.Sprintf("%s at step %d (early: without the replay buffer)", run.LastCheckpoint, t.step)})
	return nil
}

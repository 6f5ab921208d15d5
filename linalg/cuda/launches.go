package cuda

import "sync/atomic"

// LaunchCount counts what a Device starts on the accelerator, for Device.Launches: one for
// each kernel launch and each product (a batched product is one). Both devices embed it and
// count at the same calls, so that the emulator's count is the GPU's.
type LaunchCount struct{ n atomic.Int64 }

// Add counts one launch.
func (c *LaunchCount) Add() { c.n.Add(1) }

// Launches returns how many launches were counted.
func (c *LaunchCount) Launches() int64 { return c.n.Load() }

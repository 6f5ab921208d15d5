package main

import (
	"flag"

	"spg-tui/agent/device"
	"spg-tui/run"
)

// deviceFlag registers --device on fs; the function it returns, called after parsing, opens the
// device every learner of this process uses (once: the first command's choice holds).
func deviceFlag(fs *flag.FlagSet) (apply func() error) {
	mode := fs.String("device", device.Auto, "`DEVICE` "+device.Usage)
	return func() error {
		if err := device.Check(*mode); err != nil {
			return err
		}
		// Compiled kernels are kept beside the reference cache where there is one.
		cache, err := run.CacheRoot("")
		if err != nil {
			cache = ""
		}
		return device.Use(*mode, cache)
	}
}

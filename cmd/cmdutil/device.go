package cmdutil

import (
	"flag"
	"fmt"
	"io"

	"spg-tui/agent/device"
	"spg-tui/run"
)

// DeviceFlag registers --device on fs, its help saying what it decides; the function it
// returns, called after parsing, chooses the device every learner of this process uses (once:
// the first command's choice holds). Compiled kernels go to the shared cache's ptx folder,
// following the command's --cache where it has one. note, where not nil, is where the one line
// of a fallback to the CPU is printed, for commands that name the device nowhere else.
func DeviceFlag(fs *flag.FlagSet, what string, note io.Writer) (apply func() error) {
	mode := fs.String("device", device.Auto, "`DEVICE` "+device.Usage(what))
	return func() error {
		if err := device.Check(*mode); err != nil {
			return err
		}
		cacheFlag := ""
		if f := fs.Lookup("cache"); f != nil {
			cacheFlag = f.Value.String()
		}
		// Without a cache directory (no HOME) the kernels are compiled every run.
		cache, err := run.CacheRoot(cacheFlag)
		if err != nil {
			cache = ""
		}
		var say func(string)
		if note != nil {
			say = func(line string) { fmt.Fprintf(note, "%s: device %s\n", fs.Name(), line) }
		}
		return device.Use(*mode, cache, say)
	}
}

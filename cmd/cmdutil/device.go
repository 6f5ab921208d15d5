package cmdutil

import (
	"flag"
	"fmt"
	"io"

	"spg-tui/agent"
	"spg-tui/agent/device"
	"spg-tui/run"
)

// DeviceFlag registers --device on fs, its help saying what it decides; the function it
// returns, called after parsing, is the device the command passes down to the learners it
// builds. Compiled kernels go to the shared cache's ptx folder, following the command's --cache
// where it has one. note, where not nil, is where the one line of a fallback to the CPU is
// printed, for commands that name the device nowhere else.
func DeviceFlag(fs *flag.FlagSet, what string, note io.Writer) (apply func() (*device.Device, error)) {
	mode := fs.String("device", device.Auto, "`DEVICE` "+device.Usage(what))
	return func() (*device.Device, error) {
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
		return device.New(*mode, cache, say)
	}
}

// StartOn is agent.StartRun on dev: the Start of the console and of experiments.
func StartOn(dev *device.Device) func(cfg run.Config, dir string) (run.Engine, error) {
	return func(cfg run.Config, dir string) (run.Engine, error) { return agent.StartRun(cfg, dir, dev) }
}

// ResumeOn is agent.ResumeRun on dev: the console's resume.
func ResumeOn(dev *device.Device) func(dir string, steps int) (run.Engine, error) {
	return func(dir string, steps int) (run.Engine, error) { return agent.ResumeRun(dir, steps, dev) }
}

// Package tuicmd is spg-tui tui, the live console: train and watch a run, resume one, or view
// runs read-only.
package tuicmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"spg-tui/agent/device"
	"spg-tui/agent/eval"
	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/trainflags"
	"spg-tui/run"
	"spg-tui/ui"
)

// splitViewArgs takes out of args the directories that follow --view DIR (up to the next
// flag), which the flag package would stop at: tui --view A B C compares three runs.
func splitViewArgs(args []string) (rest, more []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		rest = append(rest, a)
		switch {
		case a == "--view" || a == "-view":
			if i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
		case strings.HasPrefix(a, "--view=") || strings.HasPrefix(a, "-view="):
		default:
			continue
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			more = append(more, args[i])
		}
	}
	return rest, more
}

// Options are tui's flags.
type Options struct {
	// Config is a new run's configuration, the training flags written into it; finish resolves
	// it (run.Choose) once parsing is done.
	Config            run.Config
	finish            func() error
	Out, Resume, View string
	// More are the directories after --view's first, which open the compare view.
	More        []string
	applyCache  func() error
	applyDevice func() (*device.Device, error)
	flags       *flag.FlagSet
}

// NewFlags registers tui's flags into o.
func NewFlags(o *Options) *flag.FlagSet {
	fs := cmdutil.NewFlags("tui", "[--task T --n N training flags] [--out DIR] | --resume DIR [--steps S] | --view DIR [DIR|GLOB...]")
	o.Config = ui.ConsoleConfig()
	o.finish = trainflags.RegisterFlags(fs, &o.Config)
	trainflags.ShowRecipeDefaults(fs, o.Config)
	fs.StringVar(&o.Out, "out", "", "run directory (default runs/<task><n>-<date>-<time>)")
	fs.StringVar(&o.Resume, "resume", "", "reopen the run in DIR from its last checkpoint")
	fs.StringVar(&o.View, "view", "", "open the run in DIR read-only, following it while it trains; more directories or a glob after it (--view DIR DIR...) open the compare view")
	o.applyCache = cmdutil.CacheFlag(fs)
	o.applyDevice = cmdutil.DeviceFlag(fs, "where training runs", nil) // the header and the events name it
	o.flags = fs
	return fs
}

// Main is tui on the command line args, and spg-tui with no command.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := parse(&o, args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// parse parses args, --view's further directories included, into o.
func parse(o *Options, args []string, s cmdutil.Streams) (status int, ok bool) {
	fs := NewFlags(o)
	args, o.More = splitViewArgs(args)
	return cmdutil.Parse(fs, args, s)
}

// Run opens the console o asks for.
func Run(o *Options, s cmdutil.Streams) int {
	opts, status, ok := o.console(s.Err)
	if !ok {
		return status
	}
	defer cmdutil.ForwardHangup()()
	if opts.Resume != "" {
		cmdutil.NoteCheckpointLoad(s.Err, "tui", opts.Resume)
	}
	if err := ui.Run(opts); err != nil {
		fmt.Fprintf(s.Err, "spg-tui tui: %v\n", err)
		var failed *ui.RunError
		if errors.As(err, &failed) {
			return cmdutil.ExitFailed
		}
		return cmdutil.RunErrorStatus(err)
	}
	return 0
}

// ConsoleOptions parses tui's flags into the console's options, with train's rules for a resume
// (a new total only, counted in the run's own epochs); ok=false carries the exit status.
func ConsoleOptions(args []string, s cmdutil.Streams) (opts ui.Options, status int, ok bool) {
	var o Options
	if status, ok := parse(&o, args, s); !ok {
		return opts, status, false
	}
	return o.console(s.Err)
}

// console is the console's options for o, parsed.
func (o *Options) console(stderr io.Writer) (opts ui.Options, status int, ok bool) {
	refuse := func(err error) (ui.Options, int, bool) { return opts, cmdutil.Fail(stderr, "tui", err), false }
	if err := o.applyCache(); err != nil {
		return refuse(err)
	}
	if err := cmdutil.EmptyPath(o.flags, "view", "resume", "out"); err != nil {
		return refuse(err)
	}
	set := map[string]bool{}
	o.flags.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case o.View != "":
		for name := range set {
			if name != "view" && name != "cache" {
				return refuse(fmt.Errorf("--%s: --view opens runs read-only and takes no other flag", name))
			}
		}
		compare, err := ui.ExpandViewDirs(append([]string{o.View}, o.More...))
		if err != nil {
			return refuse(err)
		}
		// A view trains nothing: it has no ablation launcher, so no Start.
		return ui.Options{Compare: compare}, 0, true
	case o.Resume != "" && o.Out != "":
		return refuse(errors.New("--out and --resume are exclusive (a resumed run stays in its directory)"))
	}
	// Only a console that trains opens the device.
	dev, err := o.applyDevice()
	if err != nil {
		return refuse(err)
	}
	if o.Resume != "" {
		steps, err := cmdutil.ResumeSteps(o.flags, o.Resume)
		if err != nil {
			return opts, cmdutil.FailRun(stderr, "tui", err), false
		}
		return ui.Options{Resume: o.Resume, Steps: steps, ResumeRun: cmdutil.ResumeOn(dev), Start: cmdutil.StartOn(dev), Score: eval.ScoreBest(dev)}, 0, true
	}
	if err := o.finish(); err != nil {
		return refuse(err)
	}
	if err := cmdutil.NoInit(o.Config); err != nil {
		return refuse(err)
	}
	return ui.Options{Config: o.Config, Dir: o.Out, Start: cmdutil.StartOn(dev), ResumeRun: cmdutil.ResumeOn(dev), Score: eval.ScoreBest(dev)}, 0, true
}

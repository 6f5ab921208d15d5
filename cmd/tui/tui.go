package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"spg-tui/agent"
	"spg-tui/agent/checkpoint"
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

func runTUI(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	opts, status, ok := tuiOptions(args, stdout, stderr)
	if !ok {
		return status
	}
	defer forwardHangup()()
	if opts.Resume != "" {
		noteCheckpointLoad(stderr, "tui", opts.Resume)
	}
	if err := ui.Run(opts); err != nil {
		fmt.Fprintf(stderr, "spg-tui tui: %v\n", err)
		var failed *ui.RunError
		if errors.As(err, &failed) {
			return exitFailed
		}
		return runErrorStatus(err)
	}
	return 0
}

// tuiOptions parses tui's flags into the console's options, with train's rules for a resume (a
// new total only, counted in the run's own epochs); ok=false carries the exit status.
func tuiOptions(args []string, stdout, stderr io.Writer) (opts ui.Options, status int, ok bool) {
	fs := newFlags("tui", "[--task T --n N training flags] [--out DIR] | --resume DIR [--steps S] | --view DIR [DIR|GLOB...]")
	cfg := ui.ConsoleConfig()
	finish := run.RegisterFlags(fs, &cfg)
	run.ShowRecipeDefaults(fs, cfg)
	out := fs.String("out", "", "run directory (default runs/<task><n>-<date>-<time>)")
	resume := fs.String("resume", "", "reopen the run in DIR from its last checkpoint")
	view := fs.String("view", "", "open the run in DIR read-only, following it while it trains; more directories or a glob after it (--view DIR DIR...) open the compare view")
	applyCache := cacheFlag(fs)
	applyDevice := deviceFlag(fs, "where training runs", nil) // the header and the events name it
	args, more := splitViewArgs(args)
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return opts, status, false
	}
	refuse := func(err error) (ui.Options, int, bool) { return opts, fail(stderr, "tui", err), false }
	if err := applyCache(); err != nil {
		return refuse(err)
	}
	if err := emptyPath(fs, "view", "resume", "out"); err != nil {
		return refuse(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *view != "":
		for name := range set {
			if name != "view" && name != "cache" {
				return refuse(fmt.Errorf("--%s: --view opens runs read-only and takes no other flag", name))
			}
		}
		compare, err := ui.ExpandViewDirs(append([]string{*view}, more...))
		if err != nil {
			return refuse(err)
		}
		// A view trains nothing: it has no ablation launcher, so no Start.
		return ui.Options{Compare: compare}, 0, true
	case *resume != "" && *out != "":
		return refuse(errors.New("--out and --resume are exclusive (a resumed run stays in its directory)"))
	}
	// Only a console that trains opens the device.
	if err := applyDevice(); err != nil {
		return refuse(err)
	}
	switch {
	case *resume != "":
		steps, err := resumeSteps(fs, *resume)
		if err != nil {
			fail(stderr, "tui", err)
			return opts, runErrorStatus(err), false
		}
		return ui.Options{Resume: *resume, Steps: steps, ResumeRun: agent.ResumeRun, Start: agent.StartRun, Score: scorePolicy}, 0, true
	}
	if err := finish(); err != nil {
		return refuse(err)
	}
	if err := noInit(cfg); err != nil {
		return refuse(err)
	}
	return ui.Options{Config: cfg, Dir: *out, Start: agent.StartRun, ResumeRun: agent.ResumeRun, Score: scorePolicy}, 0, true
}

// resumeSteps is the total that train's and tui's --resume ask of the run in dir: the one their
// --steps or --epochs give (counted in the run's own epochs), 0 to keep the run's.
func resumeSteps(fs *flag.FlagSet, dir string) (int, error) {
	// Else reading DIR/config.json fails with ENOTDIR, an I/O error's exit status, or ENOENT.
	if err := notRunDir("resume", dir); err != nil {
		return 0, err
	}
	start, err := checkpoint.ReadStartConfig(dir)
	if err != nil {
		return 0, err
	}
	return run.ResumeFlags(fs, start, dir)
}

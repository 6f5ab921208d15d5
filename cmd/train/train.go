// Package traincmd is spg-tui train: an SPG policy trained headless into a run directory,
// resumable.
package traincmd

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sync/atomic"
	"syscall"

	"spg-tui/agent"
	"spg-tui/agent/device"
	"spg-tui/agent/replay"
	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/trainflags"
	"spg-tui/envs"
	"spg-tui/run"
)

// Options are train's flags.
type Options struct {
	// Config is the new run's configuration, the training flags written into it; finish
	// resolves it (run.Choose) once parsing is done.
	Config      run.Config
	finish      func() error
	Out, Resume string
	JSON        bool
	applyCache  func() error
	applyDevice func() (*device.Device, error)
	flags       *flag.FlagSet
}

// NewFlags registers train's flags into o.
func NewFlags(o *Options) *flag.FlagSet {
	fs := cmdutil.NewFlags("train", "--task "+envs.TaskUsage()+" --n N [--steps S | --epochs E] [--seed S] --out DIR [flags]\n"+
		"       spg-tui train --resume DIR [--steps S | --epochs E] [--json]")
	o.Config = run.DefaultConfig("", 0)
	o.finish = trainflags.RegisterFlags(fs, &o.Config)
	trainflags.ShowRecipeDefaults(fs, o.Config)
	fs.StringVar(&o.Out, "out", "", "run directory: config.json, metrics.jsonl, train.log, checkpoints/ (required unless --resume)")
	fs.StringVar(&o.Resume, "resume", "", "continue the run in `DIR` exactly where its last checkpoint left it")
	fs.BoolVar(&o.JSON, "json", false, "print every metrics record to stdout, as the JSON lines of metrics.jsonl")
	o.applyCache = cmdutil.CacheFlag(fs)
	o.applyDevice = cmdutil.DeviceFlag(fs, "where training runs", nil) // the header line names it
	o.flags = fs
	return fs
}

// Main is train on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run starts or resumes the run o asks for and follows it to its end.
func Run(o *Options, s cmdutil.Streams) int {
	stderr := s.Err
	if err := o.applyCache(); err != nil {
		return cmdutil.Fail(stderr, "train", err)
	}
	if err := cmdutil.EmptyPath(o.flags, "resume", "out"); err != nil {
		return cmdutil.Fail(stderr, "train", err)
	}
	dev, err := o.applyDevice()
	if err != nil {
		return cmdutil.Fail(stderr, "train", err)
	}
	var eng run.Engine
	switch {
	case o.Resume != "" && o.Out != "":
		return cmdutil.Fail(stderr, "train", errors.New("--out and --resume are exclusive (a resumed run stays in its directory)"))
	case o.Resume != "":
		steps, err := cmdutil.ResumeSteps(o.flags, o.Resume)
		if err != nil {
			return cmdutil.FailRun(stderr, "train", err)
		}
		cmdutil.NoteCheckpointLoad(stderr, "train", o.Resume)
		if eng, err = agent.ResumeRun(o.Resume, steps, dev); err != nil {
			return cmdutil.FailRun(stderr, "train", err)
		}
	default:
		if err = cmdutil.RequireTaskN(o.flags); err == nil && o.Out == "" {
			err = errors.New("--out is required (the run directory)")
		}
		if err == nil {
			err = o.finish()
		}
		if err == nil {
			err = cmdutil.NoInit(o.Config)
		}
		if err != nil {
			return cmdutil.Fail(stderr, "train", err)
		}
		if eng, err = agent.StartRun(o.Config, o.Out, dev); err != nil {
			return cmdutil.FailRun(stderr, "train", err)
		}
	}
	return follow(eng, s.Out, stderr, o.JSON)
}

// follow prints a training run's records until it ends; SIGINT, SIGTERM or SIGHUP stops it
// (with a checkpoint). It returns the exit status.
func follow(eng run.Engine, stdout, stderr io.Writer, jsonOut bool) int {
	info, cfg := eng.Info(), eng.Config()
	fmt.Fprintf(stderr, "train: %s, seed %d, %d steps (%d per epoch), backend %s, run directory %s\n",
		info.Title, info.Seed, cfg.Steps, cfg.StepsPerEpoch(), info.Backend, info.Dir)
	if run.ModelOf(cfg).Kind.HasCritic() {
		fmt.Fprintf(stderr, "train: replay buffer capacity %d transitions (%d MiB)\n",
			info.BufferCapacity, int64(info.BufferCapacity)*replay.TransitionBytes(cfg.N)>>20)
	}
	var stopping atomic.Bool
	defer cmdutil.StopOnSignals("train", "writing the checkpoint", stderr, &stopping, eng.Stop, eng.Done())()
	defer cmdutil.ReportWaits(eng, stderr, "train", cmdutil.WaitReportEvery)()
	enc := json.NewEncoder(stdout)
	var stdoutErr error
	// The history a resumed run sends first was printed by the sessions that made it.
	skip := info.History
	run.Follow(eng.Records(), func(rec run.Record) {
		if skip > 0 {
			skip--
			return
		}
		if jsonOut && stdoutErr == nil {
			// A closed stdout stops the run as a signal would: a checkpoint, then exit.
			if stdoutErr = enc.Encode(rec); stdoutErr != nil && !stopping.Swap(true) {
				fmt.Fprintf(stderr, "train: stopping: standard output failed (%v): writing the checkpoint\n", stdoutErr)
				eng.Stop()
			}
		}
		if line := run.ProgressLine(rec, cfg); line != "" {
			fmt.Fprintln(stderr, "train:", line)
		}
	})
	<-eng.Done()
	st := eng.Status()
	if st.Dropped > 0 {
		fmt.Fprintf(stderr, "train: %d records were printed late or not at all; %s has them all\n", st.Dropped, run.MetricsFile)
	}
	if err := eng.Err(); err != nil {
		fmt.Fprintf(stderr, "spg-tui train: %v\n", err)
		return cmdutil.ExitFailed
	}
	if st.State == run.StateStopped {
		fmt.Fprintf(stderr, "train: stopped at step %d of %d; continue with: spg-tui train --resume %s\n", st.Step, st.TotalSteps, info.Dir)
	}
	if stdoutErr != nil {
		if errors.Is(stdoutErr, syscall.EPIPE) {
			return cmdutil.ExitStdoutClosed
		}
		return cmdutil.ExitFailed
	}
	return 0
}

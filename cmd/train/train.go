package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"syscall"

	"spg-tui/agent"
	"spg-tui/agent/replay"
	"spg-tui/envs"
	"spg-tui/run"
)

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("train", "--task "+envs.TaskUsage()+" --n N [--steps S | --epochs E] [--seed S] --out DIR [flags]\n"+
		"       spg-tui train --resume DIR [--steps S | --epochs E] [--json]")
	cfg := run.DefaultConfig("", 0)
	finish := run.RegisterFlags(fs, &cfg)
	run.ShowRecipeDefaults(fs, cfg)
	out := fs.String("out", "", "run directory: config.json, metrics.jsonl, train.log, checkpoints/ (required unless --resume)")
	resume := fs.String("resume", "", "continue the run in `DIR` exactly where its last checkpoint left it")
	jsonOut := fs.Bool("json", false, "print every metrics record to stdout, as the JSON lines of metrics.jsonl")
	applyCache := cacheFlag(fs)
	applyDevice := deviceFlag(fs, "where training runs", nil) // the header line names it
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if err := applyCache(); err != nil {
		return fail(stderr, "train", err)
	}
	if err := emptyPath(fs, "resume", "out"); err != nil {
		return fail(stderr, "train", err)
	}
	if err := applyDevice(); err != nil {
		return fail(stderr, "train", err)
	}
	var (
		eng run.Engine
		err error
	)
	switch {
	case *resume != "" && *out != "":
		return fail(stderr, "train", errors.New("--out and --resume are exclusive (a resumed run stays in its directory)"))
	case *resume != "":
		steps, err := resumeSteps(fs, *resume)
		if err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
		noteCheckpointLoad(stderr, "train", *resume)
		if eng, err = agent.ResumeRun(*resume, steps); err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
	default:
		if err = requireTaskN(fs); err == nil && *out == "" {
			err = errors.New("--out is required (the run directory)")
		}
		if err == nil {
			err = finish()
		}
		if err == nil {
			err = noInit(cfg)
		}
		if err != nil {
			return fail(stderr, "train", err)
		}
		if eng, err = agent.StartRun(cfg, *out); err != nil {
			fail(stderr, "train", err)
			return runErrorStatus(err)
		}
	}
	return follow(eng, stdout, stderr, *jsonOut)
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
	defer stopOnSignals("train", "writing the checkpoint", stderr, &stopping, eng.Stop, eng.Done())()
	defer reportWaits(eng, stderr, "train", waitReportEvery)()
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
		return exitFailed
	}
	if st.State == run.StateStopped {
		fmt.Fprintf(stderr, "train: stopped at step %d of %d; continue with: spg-tui train --resume %s\n", st.Step, st.TotalSteps, info.Dir)
	}
	if stdoutErr != nil {
		if errors.Is(stdoutErr, syscall.EPIPE) {
			return exitStdoutClosed
		}
		return exitFailed
	}
	return 0
}

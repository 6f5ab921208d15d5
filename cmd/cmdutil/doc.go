// Package cmdutil is what spg-tui's commands share: flag sets that report a bad flag in one
// line (with the nearest right name), the exit statuses, the stop signals of a run, the lines of
// a long wait, the --device, --cache and --task flags, instance files in and solutions out, and
// the run directories and checkpoints a command line names.
package cmdutil

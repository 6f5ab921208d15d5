// Package flagparse is the one place the commands parse a flag set: a command line is parsed
// once, by one flag set, and the count of parses lets a test hold each command to that.
package flagparse

import (
	"flag"
	"sync/atomic"
)

// parses counts the flag sets parsed in this process.
var parses atomic.Int64

// Parse parses args into fs, counting it.
func Parse(fs *flag.FlagSet, args []string) error {
	parses.Add(1)
	return fs.Parse(args)
}

// Count is how many flag sets Parse has parsed in this process so far.
func Count() int64 { return parses.Load() }

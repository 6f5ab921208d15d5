package cmdutil

import (
	"flag"
	"fmt"
)

// EmptyPath refuses a path flag among names given as an empty string: the flag's zero value
// means "not given", so an empty tui --view would otherwise start a new training run.
func EmptyPath(fs *flag.FlagSet, names ...string) error {
	for _, name := range names {
		if Given(fs, name) && fs.Lookup(name).Value.String() == "" {
			return fmt.Errorf("--%s: the path is empty; give a directory", name)
		}
	}
	return nil
}

package cmdutil

import (
	"flag"

	"spg-tui/agent/eval"
	"spg-tui/run"
)

// CacheFlag registers --cache on fs; the function it returns, called after parsing, points the
// runs this process starts at the shared cache of exact references.
func CacheFlag(fs *flag.FlagSet) (apply func() error) {
	dir := fs.String("cache", "", "shared cache of exact references and of the GPU's compiled kernels (DIR/ptx), `DIR` or off (default $XDG_CACHE_HOME/spg-tui, else ~/.cache/spg-tui): runs with the same task, size and seeds solve them once; it grows by a file per task, size and seed and is never pruned: delete DIR to clear it")
	return func() error {
		root, err := run.CacheRoot(*dir)
		if err != nil {
			return err
		}
		eval.SetReferenceCache(root)
		return nil
	}
}

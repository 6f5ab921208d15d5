package cmdutil_test

import (
	"flag"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
)

// TestCacheFlagSaysHowToClear: the shared reference cache grows without bound; --cache's help
// says where it is and how to clear it.
func TestCacheFlagSaysHowToClear(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	cmdutil.CacheFlag(fs)
	if u := fs.Lookup("cache").Usage; !strings.Contains(u, "~/.cache/spg-tui") || !strings.Contains(u, "delete DIR to clear it") {
		t.Errorf("--cache's help: %q", u)
	}
}

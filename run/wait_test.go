package run

import (
	"strings"
	"testing"
)

// The default cache follows the XDG specification: a relative XDG_CACHE_HOME is ignored for
// $HOME/.cache, and with no usable variable the message says what is wrong with each.
func TestCacheRootDefault(t *testing.T) {
	for _, tc := range []struct {
		xdg, home, want, err string
	}{
		{"/x/cache", "/home/u", "/x/cache/spg-tui", ""},
		{"rel/cache", "/home/u", "/home/u/.cache/spg-tui", ""},
		{"", "/home/u", "/home/u/.cache/spg-tui", ""},
		{"rel/cache", "", "", `no cache directory: XDG_CACHE_HOME="rel/cache" is not an absolute path and HOME is unset;`},
		{"", "home", "", `XDG_CACHE_HOME is unset and HOME="home" is not an absolute path;`},
	} {
		t.Setenv("XDG_CACHE_HOME", tc.xdg)
		t.Setenv("HOME", tc.home)
		got, err := CacheRoot("")
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("XDG_CACHE_HOME=%q HOME=%q: %q, %v; want %q, %q", tc.xdg, tc.home, got, err, tc.want, tc.err)
		}
	}
	if got, err := CacheRoot(CacheOff); got != "" || err != nil {
		t.Errorf("off: %q, %v", got, err)
	}
}

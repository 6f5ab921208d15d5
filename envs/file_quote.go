package envs

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxQuoted is the most bytes of the input that an error message quotes: a 200 MB string in a
// file must not come back whole on the terminal.
const maxQuoted = 100

// quoteClip quotes s as strconv.Quote does, cut to its first maxQuoted bytes (at a rune
// boundary) with the full length said after it.
func quoteClip(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// clip cuts s, a piece of the input written unquoted (a number's literal), as quoteClip does.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:maxQuoted], len(s))
}

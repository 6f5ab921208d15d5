package envs

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// maxQuoted is the most bytes of the input that an error message quotes: a 200 MB string in a
// file must not come back whole on the terminal.
const maxQuoted = 100

// QuoteClip quotes s, a piece of the input, for an error message as strconv.Quote does, cut to its first maxQuoted bytes (at a rune
// boundary) with the full length said after it.
func QuoteClip(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// Clip cuts s, a piece of the input written unquoted (a number's literal), as QuoteClip does.
func Clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:maxQuoted], len(s))
}

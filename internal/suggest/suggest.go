// Package suggest finds the names a mistyped word was probably meant to be: the command line's
// "did you mean" for commands, flags and tasks.
package suggest

import "strings"

// maxPrefixMatches bounds the names a prefix suggests: a shorter prefix matches too many to help.
const maxPrefixMatches = 3

// Nearest returns the names closest to word: those at the smallest edit distance (insertions,
// deletions, substitutions and swaps of neighbours each count 1) if it is at most a third of
// word's length, and at least 1 but less than the length; failing that the names word begins,
// if it is 3 letters or more and begins at most maxPrefixMatches. Names keep their order; none
// is word itself.
func Nearest(word string, names []string) []string {
	best, out := len(word)/3, []string(nil)
	if best < 1 {
		best = 1
	}
	for _, name := range names {
		d := distance(word, name)
		switch {
		case d == 0 || d > best || d >= len(word):
		case d < best || out == nil:
			best, out = d, []string{name}
		default:
			out = append(out, name)
		}
	}
	if out != nil || len(word) < 3 {
		return out
	}
	for _, name := range names {
		if name != word && strings.HasPrefix(name, word) {
			out = append(out, name)
		}
	}
	if len(out) > maxPrefixMatches {
		return nil
	}
	return out
}

// Phrase words the names for a message: "a", "a or b", "a, b or c"; each name carries prefix
// ("--" for flags).
func Phrase(prefix string, names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = prefix + n
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// distance is the optimal string alignment distance between a and b, in bytes: the edits that
// turn a into b, a swap of two neighbours counting as one.
func distance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

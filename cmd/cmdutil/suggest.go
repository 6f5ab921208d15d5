package cmdutil

import (
	"errors"
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"spg-tui/internal/suggest"
)

// undefinedFlag is how the flag package words a flag it does not know, the name after it.
const undefinedFlag = "flag provided but not defined: -"

// invalidValue is how the flag package words a value a flag's Set refused: the value (quoted),
// the flag's name and Set's error.
var invalidValue = regexp.MustCompile(`^invalid value (".*") for flag -([^:]+): (.*)$`)

// flagError rewords the flag package's errors in the program's form: a flag fs does not define
// with the nearest ones it does ("unknown flag --step; did you mean --steps?"), a value refused
// as "--task tsp20: not a task ..."; other errors pass.
func flagError(fs *flag.FlagSet, err error) error {
	if err == nil {
		return nil
	}
	if name, ok := strings.CutPrefix(err.Error(), undefinedFlag); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		return errors.New("unknown flag --" + name + DidYouMean("--", name, names))
	}
	if m := invalidValue.FindStringSubmatch(err.Error()); m != nil {
		if value, uerr := strconv.Unquote(m[1]); uerr == nil {
			return fmt.Errorf("--%s %s: %s", m[2], value, m[3])
		}
	}
	return err
}

// DidYouMean is "; did you mean X?" naming the names nearest word (suggest.Nearest), each after
// prefix, or "" when none is near.
func DidYouMean(prefix, word string, names []string) string {
	near := suggest.Nearest(word, names)
	if near == nil {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", suggest.Phrase(prefix, near))
}

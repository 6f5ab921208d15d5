package evalcmd

import (
	"flag"

	"spg-tui/cmd/cmdutil"
	"spg-tui/run"
)

// tourFlags leaves eval's --tour-decode and --tour-repair, when not given, as "" (patch and no
// repair, every model's decode), so that a model without a successor action refuses either given,
// patch and none included (run.TourRefused); one given empty is refused in one line naming the
// accepted values rather than taken for the default.
func tourFlags(fs *flag.FlagSet, dec *run.Decoding) error {
	for _, f := range []struct {
		name  string
		value *string
		names []string
	}{{"tour-decode", &dec.Tour, run.TourDecodes}, {"tour-repair", &dec.Repair, run.TourRepairs}} {
		switch {
		case !cmdutil.Given(fs, f.name):
			*f.value = ""
		case *f.value == "":
			return run.NotOneOf(f.name, "", f.names)
		}
	}
	return nil
}

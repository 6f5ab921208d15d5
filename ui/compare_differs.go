package ui

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"spg-tui/run"
)

// Config fields every run shows in its own column, that tell nothing about the learner, or
// that only record another's live change (a change of epsilon re-anchors its schedule).
var ownColumns = []string{"task", "n", "model", "recipe", "steps", "eps_anchor"}

// liveConfig is the run's configuration with the live changes its records told (set events)
// applied at their steps: a penalty switched on while it trained is on.
func (r *compareRun) liveConfig() run.Config {
	c := r.eng.Config()
	for _, s := range r.data.sets {
		if p, ok := run.ParamNamed(s.param); ok && p.Set != nil {
			p.Set(&c, s.new, s.step)
		}
	}
	return c
}

// jsonFields is c's JSON object, by field.
func jsonFields(c run.Config) (map[string]string, bool) {
	data, err := json.Marshal(c)
	var raw map[string]json.RawMessage
	if err != nil || json.Unmarshal(data, &raw) != nil {
		return nil, false
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		s := strings.Trim(string(v), `"`)
		if s == "" {
			s = "—"
		}
		out[k] = s
	}
	return out, true
}

// settings are the run's configuration values as the compare view tells them: the value it
// started with or, for one changed live, "start→now" (critic_penalty=false→true).
func (r *compareRun) settings() map[string]string {
	start, ok := jsonFields(r.eng.Config())
	now, ok2 := jsonFields(r.liveConfig())
	if !ok || !ok2 {
		return nil
	}
	for k, v := range now {
		if start[k] != v {
			start[k] += "→" + v
		}
	}
	return start
}

// Ranks of a differing setting, the first told first: changed live in some run, set apart
// from its recipe's value in some run (the seed, a --tau), set by the recipes alone (a dozen
// when recipes differ).
const (
	rankLive = iota
	rankSet
	rankRecipe
)

// differing lists, for each run, the settings ("tau=0.1", "critic_penalty=false→true") that
// are not the same in every run, ranked (rankLive first), each rank in the order of the
// configuration's JSON fields, so that a shortened cell keeps the chosen ones.
func differing(runs []*compareRun) [][]string {
	out := make([][]string, len(runs))
	if len(runs) < 2 {
		return out
	}
	fields := make([]map[string]string, len(runs))
	var keys []string
	for i, r := range runs {
		if fields[i] = r.settings(); fields[i] == nil {
			return out
		}
		for k := range fields[i] {
			if !slices.Contains(keys, k) && !slices.Contains(ownColumns, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	rank := map[string]int{}
	for _, k := range keys {
		rank[k] = rankRecipe
	}
	for i, r := range runs {
		def, err := run.WithRecipe(run.DefaultConfig(r.eng.Config().Task, r.eng.Config().N), orPaper(r.eng.Config().Recipe))
		recipe, ok := jsonFields(def)
		if err != nil || !ok {
			continue
		}
		for _, k := range keys {
			switch v := fields[i][k]; {
			case strings.Contains(v, "→"):
				rank[k] = rankLive
			case v != recipe[k]:
				rank[k] = min(rank[k], rankSet)
			}
		}
	}
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(rank[a], rank[b]) })
	for _, k := range keys {
		if !slices.ContainsFunc(fields[1:], func(f map[string]string) bool { return f[k] != fields[0][k] }) {
			continue
		}
		for i, f := range fields {
			v, ok := f[k]
			if !ok {
				v = "—"
			}
			out[i] = append(out[i], k+"="+v)
		}
	}
	return out
}

// maxDiffLines bounds the lines of a differs cell.
const maxDiffLines = 3

// wrapSettings lays settings out in lines of at most w columns, whole settings to a line, in
// at most lines lines; the settings that do not fit are counted at the end ("+4"), and a
// setting wider than a line is cut.
func wrapSettings(settings []string, w, lines int) string {
	var out [][]string
	var widths []int
	i := 0
	for ; i < len(settings); i++ {
		s := ansi.Truncate(settings[i], w, "…")
		sw := ansi.StringWidth(s)
		if n := len(out); n > 0 && widths[n-1]+1+sw <= w {
			out[n-1], widths[n-1] = append(out[n-1], s), widths[n-1]+1+sw
			continue
		}
		if len(out) == lines {
			break
		}
		out, widths = append(out, []string{s}), append(widths, sw)
	}
	if rest := len(settings) - i; rest > 0 && len(out) > 0 {
		// The count takes the place of the last line's last settings where it does not fit.
		n := len(out) - 1
		for len(out[n]) > 1 && widths[n]+len(" +"+itoa(rest)) > w {
			last := out[n][len(out[n])-1]
			out[n], widths[n] = out[n][:len(out[n])-1], widths[n]-1-ansi.StringWidth(last)
			rest++
		}
		out[n] = append(out[n], "+"+itoa(rest))
	}
	text := make([]string, len(out))
	for k, l := range out {
		text[k] = ansi.Truncate(strings.Join(l, " "), w, "…")
	}
	return strings.Join(text, "\n")
}

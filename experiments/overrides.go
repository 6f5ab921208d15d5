package experiments

import (
	"fmt"
	"maps"
	"strconv"

	"spg-tui/run"
)

// Overrides are the training settings an experiment gives every run over its arm's
// configuration: typed values, parsed once by the command from its command line, or read back
// from the words a manifest records (ReadOverrides).
type Overrides struct {
	// Values holds the settings' values; Choices names them (Choices.Given) with the choices
	// that are no field of a configuration (the recipe, the switches).
	Values  run.Config
	Choices run.Choices
	// Text is each setting as its flag words it (name without dashes -> value): the manifest's
	// and the report's record, compared between shards.
	Text map[string]string
}

// ReadOverrides reads the settings a manifest records, each as its training flag words it.
func ReadOverrides(text map[string]string) (Overrides, error) {
	o := Overrides{Text: text, Choices: run.Choices{Given: map[string]bool{}}}
	for name, v := range text {
		o.Choices.Given[name] = true
		var err error
		switch name {
		case "recipe":
			o.Choices.Recipe = v
		case "no-critic-penalty":
			o.Choices.NoCriticPenalty, err = strconv.ParseBool(v)
		case "no-exploration":
			o.Choices.NoExploration, err = strconv.ParseBool(v)
		default:
			err = run.ReadSetting(&o.Values, name, v)
		}
		if err != nil {
			return o, fmt.Errorf("--%s %s: %v", name, v, err)
		}
	}
	return o, nil
}

// given reports whether the setting called name is among the overrides.
func (o Overrides) given(name string) bool { return o.Choices.Given[name] }

// apply sets the overrides on c, an arm's configuration, as train resolves its flags over a
// configuration (run.Choose: the arm's model and recipe, the model's defaults under the
// settings given). The run length is the arm's, set after.
func (o Overrides) apply(c *run.Config) error {
	if len(o.Choices.Given) == 0 {
		return nil
	}
	run.SetGiven(c, o.Values, o.Choices.Given)
	ch := o.Choices
	ch.Given = maps.Clone(ch.Given)
	ch.Given["model"], ch.Model = true, c.Model
	if !o.given("recipe") {
		ch.Recipe = c.Recipe
	}
	r, err := run.Choose(*c, ch)
	if err != nil {
		return err
	}
	*c = r
	return nil
}

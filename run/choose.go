package run

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"spg-tui/envs"
)

// Choices are what a new run's command line chose over a base configuration: the settings it
// gave, whose values the configuration already holds and which win over the recipe's and the
// model's defaults, and the choices that are no field of it. Choose turns them into the run's
// configuration; the training flags, the console's task switch, bench and experiments all
// resolve a new run through it.
type Choices struct {
	// Given names every setting given, as the training flags name them (task, n, tau, ...;
	// model, recipe, epochs and the switches included).
	Given map[string]bool
	// Recipe names the recipe; Model the model ("": the recipe's for the task, else the task's
	// default).
	Recipe, Model string
	// Epochs is the run's length in epochs, where Given["epochs"].
	Epochs float64
	// NoCriticPenalty and NoExploration are the switches' values, where given.
	NoCriticPenalty, NoExploration bool
}

// notFields are the choices that are no field of Config, though model and recipe name one:
// Choose sets those fields itself.
var notFields = []string{"model", "recipe", "epochs", "no-critic-penalty", "no-exploration"}

// Choose resolves c, a base configuration holding the given settings' values, as a new run's
// configuration: the task's default data, the recipe, the model and its defaults under the
// settings given, the run length (--steps, --epochs or the recipe's), the switches, then
// validation. An error names the first bad setting.
func Choose(c Config, ch Choices) (Config, error) {
	set := ch.Given
	if _, err := envs.FactsOf(c.Task); err != nil {
		return c, fmt.Errorf("task: %v", err)
	}
	// A new run names its task's default data; "" stays the data of earlier runs. Set before
	// the recipe, which may choose by the data (best's model on gm's regular graphs).
	if c.Data == "" || (set["task"] && !set["data"]) {
		c.Data = envs.DefaultData(c.Task)
	}
	r := recipeByName(ch.Recipe)
	if r == nil {
		return c, fmt.Errorf("recipe %q: must be one of %s", ch.Recipe, strings.Join(RecipeNames(), ", "))
	}
	given := c
	r.set(&c)
	c.Recipe, c.Model = r.name, r.model(c)
	SetGiven(&c, given, set)
	if err := chooseModel(&c, ch.Model, set); err != nil {
		return c, err
	}
	if set["model"] {
		if err := recipeClash(c, set); err != nil {
			return c, err
		}
	}
	switch {
	case set["steps"] && set["epochs"]:
		return c, errors.New("--steps and --epochs are exclusive")
	case set["epochs"]:
		steps, err := EpochsToSteps(ch.Epochs, c.StepsPerEpoch())
		if err != nil {
			return c, err
		}
		c.Steps = steps
	case !set["steps"] && c.Steps == 0:
		c.Steps = RecipeSteps(c.Recipe, c)
	}
	if set["critic-updates"] && c.CriticUpdates < 1 {
		return c, fmt.Errorf("critic-updates %d: must be in [1, %d]", c.CriticUpdates, MaxCriticUpdates)
	}
	// Unset, the switches keep what the recipe chose.
	if set["no-critic-penalty"] {
		c.CriticPenalty = !ch.NoCriticPenalty
	}
	if set["no-exploration"] {
		c.Exploration = !ch.NoExploration
	}
	if c.Steps < 1 {
		return c, fmt.Errorf("steps %d: must be >= 1", c.Steps)
	}
	// The anneal interval only spaces the decays past --lr-anneal-from: without it the interval
	// would do nothing but sit in config.json.
	if c.LRAnnealFrom == 0 {
		if set["lr-anneal-every"] {
			return c, fmt.Errorf("lr-anneal-every %d: needs --lr-anneal-from S > 0, the step after which the rates decay every %d steps; without it they never anneal", c.LRAnnealEvery, c.LRAnnealEvery)
		}
		c.LRAnnealEvery = 0 // a recipe's, its anneal turned off
	}
	c.setValSamples(c.ValSamples)
	if c.ActorAt == ActorAtSoft {
		c.ActorAt = "" // as a configuration without the setting
	}
	return c, c.Validate()
}

// chooseModel sets the model called name (the recipe's when empty, else the task's default)
// and its default hyperparameters, under the settings given.
func chooseModel(c *Config, name string, set map[string]bool) error {
	if name == "" {
		name = c.Model // the recipe's, when it has one for the task
	}
	if name == "" {
		name = DefaultModel(c.Task)
	}
	m, err := ModelNamed(CanonicalModel(name))
	if err != nil {
		return fmt.Errorf("model: %v", err)
	}
	c.Model = m.Name
	if m.Defaults != nil {
		given := *c
		m.Defaults(c)
		SetGiven(c, given, set)
	}
	return nil
}

// SetGiven copies into dst the fields of src that the settings named in given set (by the
// training flags' names: tau, buffer-mem, ...); the choices that are no field (model, recipe,
// epochs, the switches) are left alone.
func SetGiven(dst *Config, src Config, given map[string]bool) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for name, ok := range given {
		if i, field := settingField(name); ok && field {
			d.Field(i).Set(s.Field(i))
		}
	}
}

// settingField is the index in Config of the field the setting called name sets: the one whose
// JSON name is name with "_" for "-". ok is false for a name that is no field's.
func settingField(name string) (i int, ok bool) {
	for _, n := range notFields {
		if n == name {
			return 0, false
		}
	}
	t := reflect.TypeFor[Config]()
	want := strings.ReplaceAll(name, "-", "_")
	for i := range t.NumField() {
		if tag, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); tag == want {
			return i, true
		}
	}
	return 0, false
}

// ReadSetting sets the field of c that the setting called name sets from text, the value as
// Value.String of its training flag words it (an experiment's manifest records them so): a
// number, a name, a size in bytes as a whole number, the rounding m for the paper's (""). A
// name that is no field's is refused.
func ReadSetting(c *Config, name, text string) error {
	i, ok := settingField(name)
	if !ok {
		return fmt.Errorf("--%s: not a training setting", name)
	}
	if name == "rounding" && text == RoundingM {
		text = ""
	}
	f := reflect.ValueOf(c).Elem().Field(i)
	var err error
	switch f.Kind() {
	case reflect.String:
		f.SetString(text)
	case reflect.Int, reflect.Int64:
		var v int64
		if v, err = strconv.ParseInt(text, 10, 64); err == nil {
			f.SetInt(v)
		}
	case reflect.Uint64:
		var v uint64
		if v, err = strconv.ParseUint(text, 10, 64); err == nil {
			f.SetUint(v)
		}
	case reflect.Float64:
		var v float64
		if v, err = strconv.ParseFloat(text, 64); err == nil {
			f.SetFloat(v)
		}
	case reflect.Bool:
		var v bool
		if v, err = strconv.ParseBool(text); err == nil {
			f.SetBool(v)
		}
	default:
		return fmt.Errorf("--%s: not a training setting", name)
	}
	if err != nil {
		return fmt.Errorf("--%s %s: not a %s", name, text, f.Kind())
	}
	return nil
}

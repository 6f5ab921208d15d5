package run

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"spg-tui/envs"
)

// parseTrainFlags resolves a new run over MWM-10 from settings written as train's flags
// ("--tau", "0.5", "--no-exploration", "--x=v"), read by ReadSetting into Choices: Choose's
// rules seen as a command line gives them.
func parseTrainFlags(args ...string) (Config, error) {
	return chooseArgs(DefaultConfig(envs.TaskMWM, 10), args...)
}

// chooseArgs is parseTrainFlags over base.
func chooseArgs(base Config, args ...string) (Config, error) {
	c := base
	ch := Choices{Given: map[string]bool{}, Recipe: base.Recipe}
	for i := 0; i < len(args); i++ {
		name, text, hasText := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		isSwitch := strings.HasPrefix(name, "no-")
		if !hasText && !isSwitch {
			i++
			text = args[i]
		}
		ch.Given[name] = true
		var err error
		switch name {
		case "model":
			ch.Model = text
		case "recipe":
			ch.Recipe = text
		case "epochs":
			ch.Epochs, err = strconv.ParseFloat(text, 64)
		case "no-critic-penalty":
			ch.NoCriticPenalty = text != "false"
		case "no-exploration":
			ch.NoExploration = text != "false"
		default:
			err = ReadSetting(&c, name, text)
		}
		if err != nil {
			return base, err
		}
	}
	return Choose(c, ch)
}

// TestSetGivenCopiesOnlyTheSettingsGiven: an experiment's overrides and the settings that win
// over a recipe are copied field by field, by the training flags' names.
func TestSetGivenCopiesOnlyTheSettingsGiven(t *testing.T) {
	src := DefaultConfig(envs.TaskTSP, 20)
	src.Tau, src.BufferMem, src.LRDecayEvery, src.Seed, src.Model = 0.5, 1<<20, 7, 9, "other"
	dst := DefaultConfig(envs.TaskMWM, 10)
	want := dst
	want.Tau, want.BufferMem, want.LRDecayEvery, want.Seed = 0.5, 1<<20, 7, 9
	SetGiven(&dst, src, map[string]bool{"tau": true, "buffer-mem": true, "lr-decay-every": true, "seed": true, "model": true, "epochs": true})
	if !reflect.DeepEqual(dst, want) {
		t.Errorf("got  %+v\nwant %+v", dst, want)
	}
}

// TestReadSettingReadsEachKind: a field of each kind a training setting sets reads back from
// the words its flag prints, as an experiment's manifest records them; the rest is refused.
func TestReadSettingReadsEachKind(t *testing.T) {
	var c Config
	for name, text := range map[string]string{"task": "tsp", "n": "20", "seed": "18446744073709551615", "tau": "0.25",
		"buffer-mem": "4294967296", "rounding": "m", "actor-at": "hard", "critic-updates": "3", "init": "runs/a"} {
		if err := ReadSetting(&c, name, text); err != nil {
			t.Errorf("%s %s: %v", name, text, err)
		}
	}
	if c.Task != envs.TaskTSP || c.N != 20 || c.Seed != 1<<64-1 || c.Tau != 0.25 || c.BufferMem != 4<<30 ||
		c.Rounding != "" || c.ActorAt != ActorAtHard || c.CriticUpdates != 3 || c.Init != "runs/a" {
		t.Errorf("read %+v", c)
	}
	for _, bad := range [][2]string{{"epochs", "2"}, {"model", "x"}, {"nope", "1"}, {"n", "ten"}, {"tau", "x"}} {
		if err := ReadSetting(&c, bad[0], bad[1]); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("--%s %s: %v, want a one-line refusal", bad[0], bad[1], err)
		}
	}
}
